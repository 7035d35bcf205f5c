using System.Security.Cryptography;
using System.Text.Json;
using JsonRpc.Buffers;
using JsonRpc.Protocol;
using JsonRpc.Serialization;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.Security;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Logging;
using Microsoft.Net.Http.Headers;

namespace JsonRpc.Server.Web;

/// <summary>
/// The request delegate behind <c>MapJsonRpcRouter</c>: a WebSocket upgrade becomes a router connection for as long
/// as the socket lives; a POST of one JSON-RPC message or batch becomes a short anonymous connection whose answer is
/// the response body.
/// </summary>
internal sealed class JsonRpcRouterEndpoint(JsonRpcRouter router)
{
    public async Task InvokeAsync(HttpContext context)
    {
        if (context.WebSockets.IsWebSocketRequest)
        {
            await AcceptWebSocketAsync(context).ConfigureAwait(false);
        }
        else if (HttpMethods.IsPost(context.Request.Method))
        {
            await PostAsync(context).ConfigureAwait(false);
        }
        else
        {
            context.Response.StatusCode = StatusCodes.Status405MethodNotAllowed;
            context.Response.Headers.Allow = "POST";
            context.Response.ContentType = "text/plain; charset=utf-8";
            await context.Response.WriteAsync("POST one JSON-RPC message or batch (Content-Type: application/json), or open a WebSocket.\n")
                .ConfigureAwait(false);
        }
    }

    private async Task AcceptWebSocketAsync(HttpContext context)
    {
        // A browser sends its page's origin and, unlike a POST, a WebSocket has no CORS preflight: refuse a page of
        // another site, so that no web page a user happens to visit can use a router on their machine or network.
        if (!IsSameOrigin(context.Request, out var origin))
        {
            RouterLog.ForeignOriginRefused(router.Logger, "ws-" + context.TraceIdentifier, origin);
            await RefuseAsync(context, StatusCodes.Status403Forbidden, RouterErrorCodes.AccessDenied, "Access denied",
                $"WebSockets from pages of {origin} are not accepted: only the router's own origin.").ConfigureAwait(false);
            return;
        }

        if (!TryIdentify(context, "ws-", out var identity))
        {
            await RefuseUnauthorizedAsync(context).ConfigureAwait(false);
            return;
        }

        using var socket = await context.WebSockets.AcceptWebSocketAsync().ConfigureAwait(false);
        var transport = new WebSocketTransport(socket, router.Options.MaxMessageSize);
        await transport.RunAsync(router, "ws-" + context.TraceIdentifier, RemoteEndPoint(context), context.Abort, identity).ConfigureAwait(false);
    }

    private async Task PostAsync(HttpContext context)
    {
        var request = context.Request;
        var max = router.Options.MaxMessageSize;
        if (!IsJson(request.ContentType))
        {
            await RefuseAsync(context, StatusCodes.Status415UnsupportedMediaType, JsonRpcErrorCodes.InvalidRequest, "Invalid Request",
                "The request must have Content-Type: application/json.").ConfigureAwait(false);
            return;
        }

        TransportIdentity? identity = null;
        if (router.Security is { } policy)
        {
            if (!TryIdentify(context, "http-", out identity) || (identity is null && policy.Anonymous is null && policy.HasAuthentication))
            {
                await RefuseUnauthorizedAsync(context).ConfigureAwait(false);
                return;
            }
        }
        else if (router.Options.AccessToken is not null && !router.CheckAccessToken(BearerToken(request)))
        {
            RouterLog.RegistrationRefused(router.Logger, "http-" + context.TraceIdentifier, "missing or wrong bearer token");
            context.Response.Headers.WWWAuthenticate = "Bearer";
            await RefuseAsync(context, StatusCodes.Status401Unauthorized, RouterErrorCodes.AccessDenied, "Access denied",
                "Send the access token as Authorization: Bearer <token>.").ConfigureAwait(false);
            return;
        }

        if (request.ContentLength > max)
        {
            RouterLog.MessageTooLarge(router.Logger, "http-" + context.TraceIdentifier, max);
            await RefuseAsync(context, StatusCodes.Status413PayloadTooLarge, RouterErrorCodes.MessageTooLarge, "Message too large",
                $"Messages are limited to {max} bytes.").ConfigureAwait(false);
            return;
        }

        // The transport enforces the router's own limit (and stops reading there), so the router answers a body that
        // is too large as it answers any message that is: Kestrel's generic limit would only cut the request off.
        if (context.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } limit)
        {
            limit.MaxRequestBodySize = null;
        }

        var answer = new PooledBufferWriter();
        try
        {
            var reason = await new HttpTransport(max).RunAsync(router, context, RemoteEndPoint(context), answer, identity).ConfigureAwait(false);
            if (context.RequestAborted.IsCancellationRequested)
            {
                return;
            }

            var response = context.Response;
            response.StatusCode = reason switch
            {
                CloseReason.MessageTooLarge => StatusCodes.Status413PayloadTooLarge,
                CloseReason.TooManyConnections or CloseReason.ShuttingDown => StatusCodes.Status503ServiceUnavailable,
                CloseReason.QuotaExceeded => StatusCodes.Status429TooManyRequests,
                _ when answer.WrittenCount == 0 => StatusCodes.Status204NoContent,
                _ => StatusCodes.Status200OK,
            };

            if (answer.WrittenCount > 0)
            {
                response.ContentType = "application/json";
                response.ContentLength = answer.WrittenCount;
                await response.Body.WriteAsync(answer.WrittenMemory, context.RequestAborted).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (context.RequestAborted.IsCancellationRequested)
        {
            // The caller went away.
        }
        finally
        {
            answer.Reset();
        }
    }

    /// <summary>
    /// Who the request is, under the security policy in force: a bearer token (static or JWT), else a mapped client
    /// certificate, else nobody (null). False when a bearer token was given and refused (audited).
    /// </summary>
    private bool TryIdentify(HttpContext context, string prefix, out TransportIdentity? identity)
    {
        identity = null;
        if (router.Security is not { } policy)
        {
            return true;
        }

        if (BearerToken(context.Request) is { } token)
        {
            var principal = router.Authenticate(policy, token, out var source, out var failure);
            if (principal is null)
            {
                router.Audit.Refused(RefusalReason.Authentication, null, prefix + context.TraceIdentifier, null, failure, policy.AuditLogsPerSecond);
                return false;
            }

            identity = new TransportIdentity(policy, principal, source!, "bearer token");
            return true;
        }

        identity = router.IdentityFromCertificate(context.Connection.ClientCertificate);
        return true;
    }

    private Task RefuseUnauthorizedAsync(HttpContext context)
    {
        context.Response.Headers.WWWAuthenticate = "Bearer";
        return RefuseAsync(context, StatusCodes.Status401Unauthorized, RouterErrorCodes.AccessDenied, "Access denied",
            "Send a valid token as Authorization: Bearer <token>.");
    }

    /// <summary>Answers with a JSON-RPC error object (id null) under <paramref name="status"/>.</summary>
    private async Task RefuseAsync(HttpContext context, int status, int code, string message, string detail)
    {
        Interlocked.Increment(ref router.Counters.Errors);
        var buffer = new PooledBufferWriter();
        try
        {
            using (var writer = new Utf8JsonWriter(buffer, JsonRpcMessageWriter.WriterOptions))
            {
                RouterProtocol.ReplyWriter.WriteStart(writer, idToken: default);
                RouterProtocol.ReplyWriter.WriteErrorMember(writer, code, message, detail);
                writer.WriteEndObject();
            }

            var response = context.Response;
            response.StatusCode = status;
            response.ContentType = "application/json";
            response.ContentLength = buffer.WrittenCount;
            await response.Body.WriteAsync(buffer.WrittenMemory, context.RequestAborted).ConfigureAwait(false);
        }
        finally
        {
            buffer.Reset();
        }
    }

    private static bool IsJson(string? contentType)
        => MediaTypeHeaderValue.TryParse(contentType, out var type)
            && type.MediaType.Equals("application/json", StringComparison.OrdinalIgnoreCase)
            && (type.Charset.Length == 0 || type.Charset.Equals("utf-8", StringComparison.OrdinalIgnoreCase));

    /// <summary>No Origin header (not a browser), or the origin this endpoint is served from.</summary>
    private static bool IsSameOrigin(HttpRequest request, out string origin)
    {
        origin = request.Headers.Origin.ToString();
        return origin.Length == 0
            || (Uri.TryCreate(origin, UriKind.Absolute, out var uri)
                && uri.Scheme.Equals(request.Scheme, StringComparison.OrdinalIgnoreCase)
                && uri.Authority.Equals(request.Host.Value, StringComparison.OrdinalIgnoreCase));
    }

    private static string? BearerToken(HttpRequest request)
    {
        var header = request.Headers.Authorization.ToString();
        return header.StartsWith("Bearer ", StringComparison.OrdinalIgnoreCase) ? header["Bearer ".Length..].Trim() : null;
    }

    private static string? RemoteEndPoint(HttpContext context)
        => context.Connection.RemoteIpAddress is { } ip ? $"{ip}:{context.Connection.RemotePort}" : null;
}
