namespace JsonRpc.LoadTest.Engine;

/// <summary>What a hostile connection does to the router (see <see cref="HostileClient"/>).</summary>
public enum HostileKind
{
    /// <summary>Writes calls and never reads an answer.</summary>
    NonReading,

    /// <summary>Sends batches the router must hold open: one call that is never answered beside thousands of cheap ones.</summary>
    BatchHolding,

    /// <summary>Sends one endless message a few bytes at a time.</summary>
    Slowloris,

    /// <summary>Sends one message far larger than the maximum message size.</summary>
    Oversize,

    /// <summary>Sends calls whose params nest 100,000 arrays deep.</summary>
    DeepNesting,
}
