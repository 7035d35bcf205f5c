using JsonRpc.Testing;

namespace JsonRpc.Cluster.Tests;

/// <summary>A theory that needs a real nats-server: skipped, saying so, where none is installed (CI installs Debian's).</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class NatsTheoryAttribute : TheoryAttribute
{
    public NatsTheoryAttribute()
    {
        Skip = RequiredServer.SkipIfAbsent(NatsServer.IsAvailable, NatsServer.SkipReason);
    }
}
