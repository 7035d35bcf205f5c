namespace JsonRpc.LoadTest;

/// <summary>Which implementation drives a caller or provider connection.</summary>
public enum ClientKind
{
    /// <summary>This tool's minimal socket code: the least client-side cost, so the router is what is measured.</summary>
    Raw,

    /// <summary>The project's JsonRpcClient: what an application sees.</summary>
    Client,
}
