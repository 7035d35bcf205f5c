using System.Buffers;
using System.Text;
using JsonRpc.Framing;
using JsonRpc.Server.Diagnostics;
using JsonRpc.Server.RouterProtocol;

namespace JsonRpc.Server.Routing;

internal sealed partial class RouterConnection
{
    // An HTTP request line starts with one of these; no JSON-RPC message (a JSON value, or Content-Length headers) does.
    private static readonly byte[][] HttpMethods =
        [.. new[] { "GET ", "POST ", "PUT ", "HEAD ", "DELETE ", "OPTIONS ", "PATCH ", "CONNECT " }.Select(Encoding.ASCII.GetBytes)];

    private enum HttpLook
    {
        No,
        TooFewBytes,
        Yes,
    }

    /// <summary>Whether the first bytes of a raw TCP connection are an HTTP request line (or may yet be one).</summary>
    private static HttpLook LooksLikeHttp(in ReadOnlySequence<byte> firstBytes)
    {
        Span<byte> head = stackalloc byte[8];
        head = head[..(int)Math.Min(firstBytes.Length, head.Length)];
        firstBytes.Slice(0, head.Length).CopyTo(head);
        var result = HttpLook.No;
        foreach (var method in HttpMethods)
        {
            if (head.Length >= method.Length ? head.StartsWith(method) : method.AsSpan().StartsWith(head))
            {
                return head.Length >= method.Length ? HttpLook.Yes : HttpLook.TooFewBytes;
            }
        }

        return result;
    }

    /// <summary>
    /// Someone pointed curl or a browser at the raw TCP port: answered with a plain HTTP 400 whose body says where HTTP
    /// is served (a JSON-RPC error would show as "HTTP/0.9" in curl), logged as such, and closed.
    /// </summary>
    private void AnswerHttpOnTcp()
    {
        var where = _router.HttpEndpointHint;
        RouterLog.HttpOnTcpPort(_logger, ConnectionId, RemoteEndPoint, where);
        var body = $"This is the JSON-RPC router's raw TCP port (newline-delimited or Content-Length framed JSON-RPC), not HTTP. {where}\n";
        var response = $"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: {Encoding.UTF8.GetByteCount(body)}\r\n\r\n{body}";

        // Written as it is, not as a JSON-RPC message (the newline framer would turn its CRLFs into spaces).
        _framer = new VerbatimFramer(_router.Options.MaxMessageSize);
        Interlocked.Increment(ref _router.Counters.Errors);
        Send(ReplyWriter.Copy(Encoding.UTF8.GetBytes(response)), owed: true);
        Close(CloseReason.HttpOnTcpPort);
    }

    /// <summary>Writes bytes as they are, for the one plain HTTP answer above; reads nothing (the connection is closing).</summary>
    private sealed class VerbatimFramer(int maxMessageSize) : IJsonRpcFramer
    {
        public int MaxMessageSize => maxMessageSize;

        public bool TryReadMessage(ref ReadOnlySequence<byte> buffer, out ReadOnlySequence<byte> message)
        {
            message = default;
            return false;
        }

        public void WriteMessage(IBufferWriter<byte> output, ReadOnlySpan<byte> message) => output.Write(message);
    }
}
