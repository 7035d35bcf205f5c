namespace JsonRpc.Protocol;

/// <summary>What a <see cref="RequestId"/> holds.</summary>
public enum RequestIdKind : byte
{
    /// <summary>No <c>id</c> member at all (a notification).</summary>
    None = 0,

    /// <summary><c>"id": null</c>.</summary>
    Null,

    /// <summary>A JSON number.</summary>
    Number,

    /// <summary>A JSON string.</summary>
    String,
}
