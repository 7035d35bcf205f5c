namespace JsonRpc.LoadTest;

/// <summary>What drives one run's caller connections.</summary>
public enum CallerKind
{
    /// <summary>This tool's minimal socket caller.</summary>
    Raw,

    /// <summary>The project's JsonRpcClient.</summary>
    Client,

    /// <summary>NATS.Net request-reply (the NATS peer).</summary>
    Nats,
}
