using System.Buffers;
using System.Globalization;
using System.IO.Pipelines;
using JsonRpc.Framing;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server.Cluster;

/// <summary>
/// Another node, bridged into the local router as one connection over an in-process pipe pair: what the router sends it
/// (calls to that node's methods, events its clients subscribe to, answers to its calls, cancellations) is published
/// to that node through NATS, byte for byte; what that node sends is written into the pipe. So the router routes to a
/// node exactly as to a local provider: ids are restored, timeouts and disconnects fail the calls waiting on it, and
/// anything it forwards to providers (such as <c>$/cancelRequest</c>) reaches the node.
/// </summary>
internal sealed class PeerLink
{
    // Generous: the router drains the pipe as fast as NATS fills it; this only bounds a burst.
    private static readonly PipeOptions Options = new(pauseWriterThreshold: 4 * 1024 * 1024, resumeWriterThreshold: 2 * 1024 * 1024,
        useSynchronizationContext: false);

    private readonly Pipe _toRouter = new(Options);
    private readonly Pipe _fromRouter = new(Options);
    private readonly SemaphoreSlim _writeLock = new(1, 1);
    private readonly JsonRpcCluster _cluster;
    private Task _running = Task.CompletedTask;
    private Task _pumping = Task.CompletedTask;
    private bool _closed;
    private long _incarnation;
    private RemoteClient[] _clients = [];

    public PeerLink(JsonRpcCluster cluster, string node, long incarnation)
    {
        _cluster = cluster;
        Node = node;
        _incarnation = incarnation;
        LastSeen = Environment.TickCount64;
        SendSubject = cluster.MessageSubject(node);
    }

    public string Node { get; }

    /// <summary>Which run of the node this is (0 until known); a restarted node gets a new link.</summary>
    public long Incarnation => Volatile.Read(ref _incarnation);

    /// <summary>Takes the run's id the first time it is heard; false when another run was known.</summary>
    public bool TryAdopt(long incarnation)
        => Interlocked.CompareExchange(ref _incarnation, incarnation, 0) is 0 || Incarnation == incarnation;

    /// <summary>The version of the node's registry last applied; -1 before the first.</summary>
    public long Version { get; set; } = -1;

    public long LastSeen { get; set; }

    /// <summary>Set while a state request to the node is under way.</summary>
    public int Fetching;

    /// <summary>The node's last heartbeat figures, raw JSON, for <c>get_server_stats</c>.</summary>
    public byte[]? Stats { get; set; }

    /// <summary>The subject this node's messages are published on.</summary>
    public string SendSubject { get; }

    public RouterConnection? Connection { get; private set; }

    /// <summary>The node's clients as it last announced them.</summary>
    public RemoteClient[] Clients
    {
        get => Volatile.Read(ref _clients);
        set => Volatile.Write(ref _clients, value);
    }

    /// <summary>Starts serving the node as a router connection and publishing what the router sends it.</summary>
    public void Start(JsonRpcRouter router)
    {
        _running = router.RunPeerAsync(new DuplexPipe(_toRouter.Reader, _fromRouter.Writer), "node:" + Node, c => Connection = c);
        _pumping = PumpAsync(router.Options.MaxMessageSize);
    }

    /// <summary>Hands a message from the node to the router (from the one subscription loop, in order).</summary>
    public async ValueTask DeliverAsync(ReadOnlySequence<byte> message)
    {
        await _writeLock.WaitAsync().ConfigureAwait(false);
        try
        {
            if (_closed)
            {
                return;
            }

            var writer = _toRouter.Writer;
            WriteFrame(writer, message);
            await writer.FlushAsync().ConfigureAwait(false);
        }
        finally
        {
            _writeLock.Release();
        }
    }

    /// <summary>Answers a call the router sent to the node with an error, as if the node had answered.</summary>
    public ValueTask FailCallAsync(ReadOnlySpan<byte> idToken, int code, string message, string data)
    {
        var writer = new ArrayBufferWriter<byte>(128);
        using (var json = new System.Text.Json.Utf8JsonWriter(writer))
        {
            json.WriteStartObject();
            json.WriteString("jsonrpc"u8, "2.0"u8);
            json.WritePropertyName("id"u8);
            json.WriteRawValue(idToken, skipInputValidation: true);
            json.WriteStartObject("error"u8);
            json.WriteNumber("code"u8, code);
            json.WriteString("message"u8, message);
            json.WriteString("data"u8, data);
            json.WriteEndObject();
            json.WriteEndObject();
        }

        return DeliverAsync(new ReadOnlySequence<byte>(writer.WrittenMemory));
    }

    /// <summary>
    /// Ends the link: the router sees the connection close, forgets the node's routes and fails every call waiting on it
    /// with <see cref="RouterErrorCodes.ProviderDisconnected"/>.
    /// </summary>
    public async Task CloseAsync()
    {
        await _writeLock.WaitAsync().ConfigureAwait(false);
        try
        {
            if (_closed)
            {
                return;
            }

            _closed = true;
            await _toRouter.Writer.CompleteAsync().ConfigureAwait(false);
        }
        finally
        {
            _writeLock.Release();
        }

        await _running.ConfigureAwait(false);
        await _pumping.ConfigureAwait(false);
    }

    private static void WriteFrame(PipeWriter writer, in ReadOnlySequence<byte> message)
    {
        Span<byte> header = stackalloc byte[40];
        "Content-Length: "u8.CopyTo(header);
        ((int)message.Length).TryFormat(header[16..], out var digits, provider: CultureInfo.InvariantCulture);
        "\r\n\r\n"u8.CopyTo(header[(16 + digits)..]);
        writer.Write(header[..(20 + digits)]);
        foreach (var segment in message)
        {
            writer.Write(segment.Span);
        }
    }

    private async Task PumpAsync(int maxMessageSize)
    {
        var reader = _fromRouter.Reader;
        var framer = new ContentLengthFramer(maxMessageSize);
        try
        {
            while (true)
            {
                var result = await reader.ReadAsync().ConfigureAwait(false);
                var buffer = result.Buffer;
                try
                {
                    while (framer.TryReadMessage(ref buffer, out var message))
                    {
                        await _cluster.SendAsync(this, message).ConfigureAwait(false);
                    }
                }
                finally
                {
                    reader.AdvanceTo(buffer.Start, buffer.End);
                }

                if (result.IsCompleted || result.IsCanceled)
                {
                    break;
                }
            }
        }
        catch (Exception ex)
        {
            _cluster.PumpFailed(this, ex);
        }
        finally
        {
            await reader.CompleteAsync().ConfigureAwait(false);
        }
    }

    private sealed class DuplexPipe(PipeReader input, PipeWriter output) : IDuplexPipe
    {
        public PipeReader Input { get; } = input;

        public PipeWriter Output { get; } = output;
    }
}
