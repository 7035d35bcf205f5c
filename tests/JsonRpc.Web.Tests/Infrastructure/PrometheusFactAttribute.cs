namespace JsonRpc.Web.Tests.Infrastructure;

/// <summary>A fact that runs Debian's prometheus: skipped, with the reason, where it is not installed (never under CI).</summary>
public sealed class PrometheusFactAttribute : FactAttribute
{
    public PrometheusFactAttribute()
    {
        Skip = JsonRpc.Testing.RequiredServer.SkipIfNoPrometheus();
    }
}
