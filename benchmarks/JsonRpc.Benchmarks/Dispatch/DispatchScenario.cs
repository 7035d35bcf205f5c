namespace JsonRpc.Benchmarks.Dispatch;

/// <summary>The end-to-end dispatch cases (those of a published Python JSON-RPC benchmark).</summary>
public enum DispatchScenario
{
    /// <summary><c>subtract(42, 23)</c> answered with its result.</summary>
    Success,

    /// <summary>A handler that throws; answered with Internal error (-32603).</summary>
    HandlerThrows,

    /// <summary>A method nobody registered; answered with Method not found (-32601).</summary>
    MethodNotFound,

    /// <summary>A batch of 20 <c>subtract</c> calls, answered with a batch of 20 results.</summary>
    Batch20,
}
