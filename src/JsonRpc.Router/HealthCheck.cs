using JsonRpc.Server;

namespace JsonRpc.Router;

/// <summary><c>GET /healthz</c>: 200 while the router serves, 503 once it is shutting down.</summary>
internal static class HealthCheck
{
    public static Task WriteAsync(HttpContext context)
    {
        var router = context.RequestServices.GetRequiredService<JsonRpcRouter>();
        var response = context.Response;
        response.ContentType = "text/plain; charset=utf-8";
        response.Headers.CacheControl = "no-store";
        if (router.IsShuttingDown)
        {
            response.StatusCode = StatusCodes.Status503ServiceUnavailable;
            return response.WriteAsync("Shutting down\n");
        }

        return response.WriteAsync("Healthy\n");
    }
}
