using System.Buffers;
using System.IO.Pipelines;
using JsonRpc.Dispatch;
using JsonRpc.Framing;

namespace JsonRpc.Benchmarks.Dispatch;

/// <summary>
/// Ours over the same transport StreamJsonRpc gets: a read loop on the server end of an in-memory pipe that takes
/// newline-framed messages (<see cref="NewlineDelimitedFramer"/>), dispatches each with <see cref="JsonRpcDispatcher"/>,
/// frames the answers into the pipe and flushes once per read.
/// </summary>
internal sealed class PipeDispatchServer : IDisposable
{
    private readonly IDuplexPipe _pipe;
    private readonly JsonRpcDispatcher _dispatcher;
    private readonly Task _serving;

    public PipeDispatchServer(IDuplexPipe pipe, JsonRpcDispatcher dispatcher)
    {
        _pipe = pipe;
        _dispatcher = dispatcher;
        _serving = Task.Run(ServeAsync);
    }

    private async Task ServeAsync()
    {
        var framer = new NewlineDelimitedFramer();
        using var frame = new JsonRpcFrameWriter(framer);
        while (true)
        {
            var result = await _pipe.Input.ReadAsync().ConfigureAwait(false);
            var buffer = result.Buffer;
            while (framer.TryReadMessage(ref buffer, out var message))
            {
                var bytes = message.IsSingleSegment ? message.First : message.ToArray();
                if (await _dispatcher.DispatchAsync(bytes, frame).ConfigureAwait(false) && frame.WrittenCount > 0)
                {
                    frame.CommitTo(_pipe.Output);
                }
            }

            _pipe.Input.AdvanceTo(buffer.Start, buffer.End);
            await _pipe.Output.FlushAsync().ConfigureAwait(false);
            if (result.IsCompleted)
            {
                break;
            }
        }

        await _pipe.Output.CompleteAsync().ConfigureAwait(false);
    }

    public void Dispose()
    {
        _pipe.Input.CancelPendingRead();
        _serving.Wait(TimeSpan.FromSeconds(10));
    }
}
