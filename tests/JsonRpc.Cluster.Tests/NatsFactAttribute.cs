using JsonRpc.Testing;

namespace JsonRpc.Cluster.Tests;

/// <summary>A fact that needs a real nats-server: skipped, with the reason, where it is not installed.</summary>
public sealed class NatsFactAttribute : FactAttribute
{
    public NatsFactAttribute()
    {
        if (!NatsServer.IsAvailable)
        {
            Skip = NatsServer.SkipReason;
        }
    }
}
