using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace JsonRpc.Router;

/// <summary>
/// <c>GET /healthz</c>, through ASP.NET Core's health checks (the router's check, <c>AddJsonRpcRouter</c>): 200 while the
/// router serves (Healthy, or Degraded near its memory budget), 503 once it is shutting down, with the status and, when
/// not Healthy, why, as one line of text.
/// </summary>
internal static class HealthCheck
{
    public static HealthCheckOptions Options { get; } = new() { ResponseWriter = WriteAsync };

    private static Task WriteAsync(HttpContext context, HealthReport report)
    {
        context.Response.ContentType = "text/plain; charset=utf-8";
        if (report.Status == HealthStatus.Healthy)
        {
            return context.Response.WriteAsync("Healthy\n");
        }

        var reasons = string.Join("; ", report.Entries.Values.Where(static e => e.Status != HealthStatus.Healthy).Select(static e => e.Description));
        return context.Response.WriteAsync($"{report.Status}: {reasons}\n");
    }
}
