namespace JsonRpc.Protocol;

/// <summary>What a JSON-RPC message is.</summary>
public enum JsonRpcMessageKind : byte
{
    /// <summary>Not a valid message (see <see cref="JsonRpcInvalidMessage"/>).</summary>
    Invalid = 0,

    /// <summary>A call that expects an answer: has <c>method</c> and <c>id</c>.</summary>
    Request,

    /// <summary>A call without an answer: has <c>method</c> and no <c>id</c>.</summary>
    Notification,

    /// <summary>A successful answer: has <c>result</c>.</summary>
    Response,

    /// <summary>A failed answer: has <c>error</c>.</summary>
    Error,

    /// <summary>A JSON array of messages.</summary>
    Batch,
}
