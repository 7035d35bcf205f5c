namespace JsonRpc.Server.Tests.Infrastructure;

/// <summary>A test that needs a real nats-server: skipped, saying so, where none is installed (CI installs Debian's).</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class NatsFactAttribute : FactAttribute
{
    public NatsFactAttribute()
    {
        if (JsonRpc.LoadTest.Engine.ServerLaunch.FindNatsServer() is null)
        {
            Skip = "nats-server is not installed (Debian: apt-get install nats-server); the NATS peer cannot be measured here.";
        }
    }
}
