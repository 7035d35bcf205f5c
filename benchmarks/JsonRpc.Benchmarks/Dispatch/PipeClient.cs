using System.Buffers;
using System.IO.Pipelines;

namespace JsonRpc.Benchmarks.Dispatch;

/// <summary>
/// The client end of an in-memory duplex pipe to a server: writes framed input, then reads until the expected
/// number of newline-terminated answers has arrived and copies them into an output buffer (bytes in, bytes out).
/// Waits synchronously, as a benchmark method must; the server runs its own read loop on the thread pool.
/// </summary>
internal sealed class PipeClient(IDuplexPipe pipe)
{
    public int RoundTrip(ReadOnlySpan<byte> input, int answers, IBufferWriter<byte> output)
    {
        pipe.Output.Write(input);
        var flush = pipe.Output.FlushAsync();
        if (!flush.IsCompletedSuccessfully)
        {
            flush.AsTask().GetAwaiter().GetResult();
        }

        var seen = 0;
        var written = 0;
        while (seen < answers)
        {
            var read = pipe.Input.ReadAsync();
            var result = read.IsCompletedSuccessfully ? read.Result : read.AsTask().GetAwaiter().GetResult();
            var buffer = result.Buffer;
            while (seen < answers && buffer.PositionOf((byte)'\n') is { } newline)
            {
                var line = buffer.Slice(0, buffer.GetPosition(1, newline));
                foreach (var segment in line)
                {
                    output.Write(segment.Span);
                }

                written += (int)line.Length;
                buffer = buffer.Slice(line.End);
                seen++;
            }

            pipe.Input.AdvanceTo(buffer.Start, buffer.End);
            if (result.IsCompleted && seen < answers)
            {
                throw new InvalidOperationException($"The server closed the pipe after {seen} of {answers} answers.");
            }
        }

        return written;
    }
}
