using System.Text;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;

namespace JsonRpc.Server.Web;

/// <summary>
/// The dashboard's three static files, embedded in this assembly (plain HTML, CSS and JavaScript, no build step),
/// served from memory with the router's path written into the page.
/// </summary>
internal static class DashboardFiles
{
    private const string ResourcePrefix = "JsonRpc.Server.Web.Dashboard.";

    public static IEndpointConventionBuilder Map(IEndpointRouteBuilder endpoints, string pattern, string rpcPath)
    {
        // Absolute paths, so that the page works at /dashboard as well as at /dashboard/.
        var basePath = pattern.TrimEnd('/') + "/";
        var page = Encoding.UTF8.GetBytes(ReadText("index.html")
            .Replace("{{RPC_PATH}}", System.Net.WebUtility.HtmlEncode(rpcPath), StringComparison.Ordinal)
            .Replace("{{BASE}}", System.Net.WebUtility.HtmlEncode(basePath), StringComparison.Ordinal));
        var script = Encoding.UTF8.GetBytes(ReadText("dashboard.js"));
        var style = Encoding.UTF8.GetBytes(ReadText("dashboard.css"));

        var group = endpoints.MapGroup(pattern);
        group.MapGet("/", context => ServeAsync(context, page, "text/html; charset=utf-8"));
        group.MapGet("/dashboard.js", context => ServeAsync(context, script, "text/javascript; charset=utf-8"));
        group.MapGet("/dashboard.css", context => ServeAsync(context, style, "text/css; charset=utf-8"));
        return group;
    }

    private static Task ServeAsync(HttpContext context, byte[] content, string contentType)
    {
        var response = context.Response;
        response.ContentType = contentType;
        response.ContentLength = content.Length;
        response.Headers.CacheControl = "no-cache";
        response.Headers.XContentTypeOptions = "nosniff";
        response.Headers.ContentSecurityPolicy = "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; frame-ancestors 'none'";
        return HttpMethods.IsHead(context.Request.Method) ? Task.CompletedTask : response.Body.WriteAsync(content, 0, content.Length, context.RequestAborted);
    }

    private static string ReadText(string name)
    {
        using var stream = typeof(DashboardFiles).Assembly.GetManifestResourceStream(ResourcePrefix + name)
            ?? throw new InvalidOperationException($"The dashboard file {name} is not embedded in {typeof(DashboardFiles).Assembly.GetName().Name}.");
        using var reader = new StreamReader(stream, Encoding.UTF8);
        return reader.ReadToEnd();
    }
}
