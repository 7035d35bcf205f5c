using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using System.Text.Json;
using JsonRpc.Benchmarks.Dispatch;
using JsonRpc.Server;

namespace JsonRpc.Benchmarks.Security;

/// <summary>One connection to an in-process <see cref="JsonRpcRouter"/> over a pair of in-memory pipes.</summary>
internal sealed class RouterPipe : IDuplexPipe
{
    private readonly Pipe _toRouter = new(new PipeOptions(useSynchronizationContext: false));
    private readonly Pipe _fromRouter = new(new PipeOptions(useSynchronizationContext: false));

    private RouterPipe(JsonRpcRouter router, string id)
    {
        Served = router.RunConnectionAsync(new Duplex(_toRouter.Reader, _fromRouter.Writer), id);
        Client = new PipeClient(this);
    }

    /// <summary>The router's side of the connection, running until either end closes.</summary>
    public Task Served { get; }

    /// <summary>Writes framed input and waits for answers, synchronously.</summary>
    public PipeClient Client { get; }

    public PipeReader Input => _fromRouter.Reader;

    public PipeWriter Output => _toRouter.Writer;

    public static RouterPipe Connect(JsonRpcRouter router, string id) => new(router, id);

    /// <summary>Sends one request and returns its answer, which must be a result.</summary>
    public string Call(string method, string @params)
    {
        var output = new ArrayBufferWriter<byte>();
        Client.RoundTrip(Encoding.UTF8.GetBytes($"{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"{method}\",\"params\":{@params}}}\n"), 1, output);
        var answer = Encoding.UTF8.GetString(output.WrittenSpan);
        using var document = JsonDocument.Parse(answer);
        if (!document.RootElement.TryGetProperty("result", out _))
        {
            throw new InvalidOperationException($"{method} was answered {answer.Trim()}");
        }

        return answer;
    }

    public void Complete()
    {
        _toRouter.Writer.Complete();
        _fromRouter.Reader.Complete();
    }

    private sealed class Duplex(PipeReader input, PipeWriter output) : IDuplexPipe
    {
        public PipeReader Input { get; } = input;

        public PipeWriter Output { get; } = output;
    }
}

/// <summary>
/// A provider connected to the router: answers every request it is routed with <c>"result":1</c>, echoing the id the
/// router gave it. Reads and writes the pipe directly, allocating nothing per call, so that what the benchmark counts
/// is the router's.
/// </summary>
internal sealed class EchoProvider
{
    private static readonly byte[] Head = "{\"jsonrpc\":\"2.0\",\"id\":"u8.ToArray();
    private static readonly byte[] Tail = ",\"result\":1}\n"u8.ToArray();
    private readonly RouterPipe _pipe;

    public EchoProvider(RouterPipe pipe)
    {
        _pipe = pipe;
        Running = Task.Run(RunAsync);
    }

    public Task Running { get; }

    private async Task RunAsync()
    {
        var input = _pipe.Input;
        var output = _pipe.Output;
        while (true)
        {
            var result = await input.ReadAsync().ConfigureAwait(false);
            var buffer = result.Buffer;
            var answered = false;
            while (buffer.PositionOf((byte)'\n') is { } newline)
            {
                Answer(buffer.Slice(0, newline), output);
                answered = true;
                buffer = buffer.Slice(buffer.GetPosition(1, newline));
            }

            input.AdvanceTo(buffer.Start, buffer.End);
            if (answered)
            {
                await output.FlushAsync().ConfigureAwait(false);
            }

            if (result.IsCompleted)
            {
                return;
            }
        }
    }

    private static void Answer(ReadOnlySequence<byte> line, PipeWriter output)
    {
        var reader = new Utf8JsonReader(line);
        reader.Read(); // {
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var isId = reader.ValueTextEquals("id"u8);
            reader.Read();
            if (isId)
            {
                output.Write(Head);
                if (reader.HasValueSequence)
                {
                    foreach (var segment in reader.ValueSequence)
                    {
                        output.Write(segment.Span);
                    }
                }
                else
                {
                    output.Write(reader.ValueSpan);
                }

                output.Write(Tail);
                return;
            }

            reader.Skip();
        }
    }
}
