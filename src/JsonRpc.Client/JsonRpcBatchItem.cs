using JsonRpc.Protocol;

namespace JsonRpc.Client;

/// <summary>One entry of a batch for <see cref="JsonRpcClient.CallBatchAsync"/>: a call (answered) or a notification.</summary>
public readonly struct JsonRpcBatchItem
{
    private JsonRpcBatchItem(string method, RawJson @params, bool isNotification)
    {
        ArgumentNullException.ThrowIfNull(method);
        Method = method;
        Params = @params;
        IsNotification = isNotification;
    }

    /// <summary>The method name.</summary>
    public string Method { get; }

    /// <summary>The params (an object or array; any other value is sent as <c>[value]</c>), or absent.</summary>
    public RawJson Params { get; }

    /// <summary>True for a notification, which gets no answer.</summary>
    public bool IsNotification { get; }

    /// <summary>A call, answered in the batch's results.</summary>
    public static JsonRpcBatchItem Call(string method, RawJson @params = default) => new(method, @params, false);

    /// <summary>A notification: sent in the batch, never answered.</summary>
    public static JsonRpcBatchItem Notification(string method, RawJson @params = default) => new(method, @params, true);
}
