using System.Buffers;
using System.IO.Pipelines;
using JsonRpc.Buffers;
using JsonRpc.Server.Diagnostics;
using Microsoft.AspNetCore.Http;

namespace JsonRpc.Server.Web;

/// <summary>
/// One HTTP POST as a short-lived, anonymous router connection: the body is streamed into the input pipe as one
/// message (stopping as soon as it passes <see cref="JsonRpcRouterOptions.MaxMessageSize"/>, so it is never read
/// whole), the input ends, and the connection closes once every call in it has been answered — routed calls within
/// <see cref="JsonRpcRouterOptions.CallTimeout"/>. What the router answered becomes the response body.
/// </summary>
internal sealed class HttpTransport : IDuplexPipe
{
    private readonly Pipe _input;
    private readonly Pipe _output = new(new PipeOptions(useSynchronizationContext: false));
    private readonly int _maxMessageSize;

    public HttpTransport(int maxMessageSize)
    {
        _maxMessageSize = maxMessageSize;
        var pause = maxMessageSize + 64L * 1024;
        _input = new Pipe(new PipeOptions(pauseWriterThreshold: pause, resumeWriterThreshold: pause / 2, useSynchronizationContext: false));
    }

    public PipeReader Input => _input.Reader;

    public PipeWriter Output => _output.Writer;

    /// <summary>
    /// Runs the request through the router and returns why its connection ended, with the first message the router
    /// answered (the response or the batch's responses), if any, in <paramref name="answer"/>.
    /// </summary>
    public async Task<CloseReason> RunAsync(JsonRpcRouter router, HttpContext context, string? remote, PooledBufferWriter answer, Security.TransportIdentity? identity = null)
    {
        var reading = ReadBodyAsync(context.Request.BodyReader, context.RequestAborted);
        var collecting = CollectAsync(answer);
        var reason = await router.RunConnectionAsync(this, "http-" + context.TraceIdentifier, remote, context.Abort,
            framer: new MessageBoundaryFramer(_maxMessageSize), answerThenClose: true, identity: identity).ConfigureAwait(false);
        await reading.ConfigureAwait(false);
        await collecting.ConfigureAwait(false);
        return reason;
    }

    private async Task ReadBodyAsync(PipeReader body, CancellationToken aborted)
    {
        var writer = _input.Writer;
        Exception? error = null;
        try
        {
            long length = 0;
            while (true)
            {
                var result = await body.ReadAsync(aborted).ConfigureAwait(false);
                var buffer = result.Buffer;
                if (CopyUntilStray(buffer, writer))
                {
                    // 0xFF never occurs in UTF-8, so the body is not JSON; and it is the router's message boundary, so
                    // passed on it would cut the body in two messages. It stays one: what came before and an invalid
                    // byte, answered -32700, and nothing after it is read.
                    body.AdvanceTo(buffer.End);
                    MessageBoundaryFramer.WriteDelimiter(writer);
                    await writer.FlushAsync(CancellationToken.None).ConfigureAwait(false);
                    break;
                }

                length += buffer.Length;
                body.AdvanceTo(buffer.End);
                if (length > _maxMessageSize)
                {
                    // The router's framer refuses what it has: no need to read the rest.
                    await writer.FlushAsync(CancellationToken.None).ConfigureAwait(false);
                    break;
                }

                if (result.IsCompleted)
                {
                    MessageBoundaryFramer.WriteDelimiter(writer);
                    await writer.FlushAsync(CancellationToken.None).ConfigureAwait(false);
                    break;
                }

                var flushed = await writer.FlushAsync(CancellationToken.None).ConfigureAwait(false);
                if (flushed.IsCompleted || flushed.IsCanceled)
                {
                    break;
                }
            }
        }
        catch (Exception ex) when (ex is IOException or OperationCanceledException or BadHttpRequestException)
        {
            error = new IOException("The request body could not be read.", ex);
        }

        await writer.CompleteAsync(error).ConfigureAwait(false);
    }

    // Copies the body's bytes into the router's input up to a stray message boundary byte, which it replaces with
    // 0xFE (also never in UTF-8); returns whether there was one.
    private static bool CopyUntilStray(in ReadOnlySequence<byte> buffer, PipeWriter writer)
    {
        foreach (var segment in buffer)
        {
            var span = segment.Span;
            var stray = span.IndexOf(MessageBoundaryFramer.Delimiter);
            if (stray >= 0)
            {
                writer.Write(span[..stray]);
                writer.Write([(byte)0xFE]);
                return true;
            }

            writer.Write(span);
        }

        return false;
    }

    private async Task CollectAsync(PooledBufferWriter answer)
    {
        var reader = _output.Reader;
        var found = false;
        while (true)
        {
            var result = await reader.ReadAsync().ConfigureAwait(false);
            var buffer = result.Buffer;
            while (buffer.PositionOf(MessageBoundaryFramer.Delimiter) is { } end)
            {
                // One request, one answer: anything after it (an event to a client that subscribed over HTTP) has no
                // one to go to.
                if (!found)
                {
                    foreach (var segment in buffer.Slice(0, end))
                    {
                        answer.Write(segment.Span);
                    }

                    found = true;
                }

                buffer = buffer.Slice(buffer.GetPosition(1, end));
            }

            reader.AdvanceTo(buffer.Start, buffer.End);
            if (result.IsCompleted || result.IsCanceled)
            {
                break;
            }
        }

        await reader.CompleteAsync().ConfigureAwait(false);
    }
}
