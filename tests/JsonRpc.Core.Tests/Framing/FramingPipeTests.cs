using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using JsonRpc.Framing;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Core.Tests.Framing;

/// <summary>
/// Framer write, a real <see cref="Pipe"/> with small segments and back-pressure, then a read loop in the SignalR style
/// that detects the framing from the first bytes.
/// </summary>
public class FramingPipeTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);

    [Theory]
    [MemberData(nameof(FramingSample.Names), MemberType = typeof(FramingSample))]
    public async Task RoundTrip_ManyMessagesOfMixedSizes_ArriveWholeAndInOrder(string framing)
    {
        var pipe = NewPipe();
        var random = new Random(42);
        var sent = Enumerable.Range(0, 400)
            .Select(i => (JsonRpcMessage)new JsonRpcRequest(
                i,
                "method/" + i,
                RawJson.From(
                    new[] { new string((char)('a' + (i % 26)), random.Next(0, 3) == 0 ? random.Next(0, 20_000) : random.Next(0, 200)), "\n\"\\é" })))
            .ToList();

        var writer = WriteAsync(pipe.Writer, FramingSample.Get(framing).CreateFramer(), sent);
        var received = await ReadLoopAsync(pipe.Reader, 64 * 1024).WaitAsync(Timeout);
        await writer.WaitAsync(Timeout);

        Assert.Equal(sent.Count, received.Messages.Count);
        for (var i = 0; i < sent.Count; i++)
        {
            Assert.Equal(sent[i].ToUtf8Bytes(), received.Messages[i]);
        }

        Assert.Equal(framing == "newline" ? typeof(NewlineDelimitedFramer) : typeof(ContentLengthFramer), received.Framer?.GetType());
    }

    [Theory]
    [InlineData("[1]\n[2", "[1]")]
    [InlineData("Content-Length: 3\r\n\r\n[1]Content-Length: 3\r\n\r\n[2", "[1]")]
    [InlineData("Content-Length: 3\r\n", null)]
    [InlineData("Content-Len", null)]
    public async Task ReadLoop_ConnectionEndsInsideAMessage_ReportsLeftoverBytes(string stream, string? first)
    {
        var pipe = NewPipe();
        await pipe.Writer.WriteAsync(Encoding.UTF8.GetBytes(stream)).AsTask().WaitAsync(Timeout);
        await pipe.Writer.CompleteAsync().AsTask().WaitAsync(Timeout);
        var messages = new List<byte[]>();

        var error = await Assert.ThrowsAsync<InvalidDataException>(() => ReadLoopAsync(pipe.Reader, 1024, messages).WaitAsync(Timeout));

        Assert.Contains("ended inside a message", error.Message);
        Assert.Equal(first is null ? [] : [first], messages.Select(message => Encoding.UTF8.GetString(message)));
    }

    [Fact]
    public async Task ReadLoop_EndlessLineOverPipe_FailsWithoutBufferingItAndReleasesTheWriter()
    {
        var pipe = NewPipe();
        var writer = Task.Run(async () =>
        {
            var chunk = new byte[100];
            chunk.AsSpan().Fill((byte)'x');
            chunk[0] = (byte)'[';
            for (var i = 0; i < 100_000; i++)
            {
                if ((await pipe.Writer.WriteAsync(chunk)).IsCompleted)
                {
                    return i;
                }

                chunk[0] = (byte)'x';
            }

            return -1;
        });

        var error = await Assert.ThrowsAsync<JsonRpcFramingException>(() => ReadLoopAsync(pipe.Reader, 1024).WaitAsync(Timeout));
        var chunksWritten = await writer.WaitAsync(Timeout);

        Assert.Equal(JsonRpcFramingErrorReason.MessageTooLarge, error.Reason);
        Assert.InRange(chunksWritten, 10, 1000); // stopped soon after the reader gave up, not after 10 MB
    }

    [Fact]
    public async Task ReadLoop_ContentLengthOverMax_FailsBeforeAnyBodyIsSent()
    {
        var pipe = NewPipe();
        await pipe.Writer.WriteAsync("Content-Length: 10000000\r\n"u8.ToArray()).AsTask().WaitAsync(Timeout);

        // The writer has not completed and sent no body: the loop must not wait for either.
        var error = await Assert.ThrowsAsync<JsonRpcFramingException>(() => ReadLoopAsync(pipe.Reader, 1024).WaitAsync(Timeout));

        Assert.Equal(JsonRpcFramingErrorReason.MessageTooLarge, error.Reason);
        Assert.True((await pipe.Writer.WriteAsync("{}"u8.ToArray()).AsTask().WaitAsync(Timeout)).IsCompleted);
    }

    // Small segments, so messages and headers straddle them; a low pause threshold, so the writer waits on the reader.
    private static Pipe NewPipe() => new(new PipeOptions(
        pauseWriterThreshold: 32 * 1024, resumeWriterThreshold: 16 * 1024, minimumSegmentSize: 256, useSynchronizationContext: false));

    private static Task WriteAsync(PipeWriter output, IJsonRpcFramer framer, List<JsonRpcMessage> messages) => Task.Run(async () =>
    {
        using var frame = new JsonRpcFrameWriter(framer);
        for (var i = 0; i < messages.Count; i++)
        {
            JsonRpcMessageWriter.Write(frame, messages[i]);
            frame.CommitTo(output);
            if (i % 5 == 4)
            {
                await output.FlushAsync();
            }
        }

        await output.CompleteAsync();
    });

    private static async Task<(List<byte[]> Messages, IJsonRpcFramer? Framer)> ReadLoopAsync(
        PipeReader input, int maxMessageSize, List<byte[]>? messages = null)
    {
        messages ??= [];
        IJsonRpcFramer? framer = null;
        using var timeout = new CancellationTokenSource(Timeout);
        try
        {
            while (true)
            {
                var result = await input.ReadAsync(timeout.Token);
                var buffer = result.Buffer;
                try
                {
                    if (result.IsCanceled)
                    {
                        break;
                    }

                    if (framer is not null || JsonRpcFramer.Detect(buffer, maxMessageSize, out framer))
                    {
                        while (framer.TryReadMessage(ref buffer, out var message))
                        {
                            // Copied before AdvanceTo, after which the slice must not be touched.
                            messages.Add(message.ToArray());
                        }
                    }

                    if (result.IsCompleted)
                    {
                        if (!buffer.IsEmpty)
                        {
                            throw new InvalidDataException($"The connection ended inside a message ({buffer.Length} bytes left over).");
                        }

                        break;
                    }
                }
                finally
                {
                    input.AdvanceTo(buffer.Start, buffer.End);
                }
            }
        }
        finally
        {
            await input.CompleteAsync();
        }

        return (messages, framer);
    }
}
