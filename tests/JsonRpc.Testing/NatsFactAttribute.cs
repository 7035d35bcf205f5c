
namespace JsonRpc.Testing;

/// <summary>A test that needs a real nats-server: skipped, saying so, where none is installed (CI installs Debian's).</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class NatsFactAttribute : FactAttribute
{
    public NatsFactAttribute()
    {
        Skip = RequiredServer.SkipIfAbsent(NatsServer.IsAvailable, NatsServer.SkipReason);
    }
}
