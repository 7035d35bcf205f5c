using System.Buffers;
using System.Diagnostics;
using System.IO.Pipelines;
using System.Net.Security;
using System.Net.WebSockets;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using JsonRpc.Dispatch;
using JsonRpc.Framing;

namespace JsonRpc.Client.Internal;

/// <summary>
/// One TCP (or TLS) connection: a read loop that cuts framed messages out of a <see cref="PipeReader"/> and hands them
/// to the owner, and a write side where whole framed messages are copied into an in-memory <see cref="Pipe"/> under a
/// short lock (no await inside, so contended writers never allocate) while one pump moves everything buffered to the
/// socket, so concurrent callers share socket writes.
/// </summary>
internal sealed class ClientConnection : IAsyncDisposable, IPeriodWatched
{
    // The pipe never pauses (threshold 0), so a flush completes inside the lock; back-pressure is applied before the
    // lock instead, against the bytes the pump has not sent yet (HighWater / LowWater).
    private static readonly PipeOptions OutputOptions = new(
        readerScheduler: WriterThreadScheduler.Instance,
        pauseWriterThreshold: 0,
        minimumSegmentSize: 16 * 1024,
        useSynchronizationContext: false);

    /// <summary>Past this much held back, a write is sent although answers are still being handed out.</summary>
    private const long MaxHeldBytes = 64 * 1024;

    private const int ReadBufferSize = 128 * 1024;

    private const long HighWater = 1024 * 1024;
    private const long LowWater = 512 * 1024;

    private readonly Socket? _socket;
    private readonly WebSocket? _webSocket;
    private readonly Stream _stream;
    private readonly PipeReader _input;
    private readonly Pipe _output = new(OutputOptions);
    private readonly Lock _writeGate = new();
    private readonly TimeSpan _sendTimeout;
    private readonly IJsonRpcFramer _reader;
    private readonly IJsonRpcFramer _writer;
    private readonly CancellationTokenSource _closing = new();
    private readonly List<ArraySegment<byte>> _gathered = [];
    private IConnectionOwner? _owner;
    private Task _reading = Task.CompletedTask;
    private readonly TaskCompletionSource _readsEnded = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Action _onReadCompleted;
    private ValueTask<ReadResult> _pendingRead;
    private int _readingParked;
    private int _queuedBatches;
    private Task _writing = Task.CompletedTask;

    // Guarded by _writeGate: the outgoing pipe's writer was completed (on dispose).
    private bool _outputCompleted;

    private static readonly TimeSpan GracefulCloseTimeout = TimeSpan.FromSeconds(2);
    private int _closed;
    private long _lastWriteTicks = Environment.TickCount64;
    private long _unsent;
    private int _resuming;
    private int _holdEpoch;
    private bool _holdBroken;
    private bool _holdWatched;
    private int _incomingCalls;
    private TaskCompletionSource? _drained;

    // The read loop's batch being filled, and one that has run, kept for reuse (see ReadBatch).
    private ReadBatch? _batch;
    private ReadBatch? _spareBatch;

    private ClientConnection(Socket? socket, WebSocket? webSocket, Stream stream, Func<IJsonRpcFramer> framer, string endPoint, TimeSpan sendTimeout)
    {
        _sendTimeout = sendTimeout;
        _socket = socket;
        _webSocket = webSocket;
        _stream = stream;

        // Framers are not thread-safe and the read loop and the writers run at once: one each.
        _reader = framer();
        _writer = framer();
        EndPoint = endPoint;
        Cancellation = new JsonRpcCancellationScope(_closing.Token);
        // Reads of up to 128 KiB (the router's block size): a 100 KB answer takes one or two receives, not seven of
        // 16 KB. The reader holds one such buffer from the pool while it waits for data.
        _input = PipeReader.Create(stream, new StreamPipeReaderOptions(bufferSize: ReadBufferSize, minimumReadSize: 4 * 1024));
        _onReadCompleted = OnReadCompleted;
    }

    /// <summary>host:port, for messages.</summary>
    public string EndPoint { get; }

    public bool IsClosed => Volatile.Read(ref _closed) != 0;

    /// <summary>Whether a write would wait for the pump (more than the high-water mark is unsent).</summary>
    public bool IsBackedUp => Volatile.Read(ref _unsent) >= HighWater;

    /// <summary>
    /// A message read here is about to resume its caller (or run a call of the peer's) on the thread pool, which will
    /// likely write (its next call, the answer): until every such piece of work has run (<see cref="ReleaseWrites"/>),
    /// writes are held in the outgoing pipe (up to <see cref="MaxHeldBytes"/>) rather than each waking the send pump,
    /// so that what one read leads to leaves in one send instead of one each. Nothing waits on a timer: the last to run
    /// sends what is held.
    /// </summary>
    private void HoldWrites() => Interlocked.Increment(ref _resuming);

    /// <summary>
    /// Work deferred with <see cref="HoldWrites"/> has run (or was handed on); the last one sends what was held, on this
    /// thread unless <paramref name="sendHere"/> is false (the watch's timer thread).
    /// </summary>
    public void ReleaseWrites(bool sendHere = true)
    {
        if (Interlocked.Decrement(ref _resuming) == 0)
        {
            if (sendHere)
            {
                WriterThreadScheduler.Collect();
            }

            try
            {
                lock (_writeGate)
                {
                    _holdEpoch++;
                    _holdBroken = false;
                    _holdWatched = false;
                    FlushHeldLocked();
                }
            }
            finally
            {
                WriterThreadScheduler.RunCollected();
            }
        }
    }

    /// <summary>
    /// A hold that has held writes for a whole <see cref="PeriodWatch"/> period (a caller's continuation that blocks its
    /// thread, say waiting synchronously for another call on this client, whose request would otherwise stay held):
    /// sends what is held, and lets every write go at once until the callers of that period have all run.
    /// </summary>
    internal void BreakHold(int epoch)
    {
        // On the watch's timer thread: the send goes to the pool, not here.
        lock (_writeGate)
        {
            if (epoch != _holdEpoch)
            {
                return;
            }

            _holdBroken = true;
            FlushHeldLocked();
        }
    }

    bool IPeriodWatched.OnPeriodElapsed(int epoch, ref int seen)
    {
        BreakHold(epoch);
        return false;
    }

    /// <summary>
    /// Queues work a message read here led to (a caller to resume, a call to serve; read loop only): it runs once this
    /// read is handled, in one <see cref="ReadBatch"/> with the rest of the read's work, and writes are held until it
    /// has run (<see cref="HoldWrites"/>), so that what the batch writes leaves together. A served call's hold lasts
    /// while its handler runs synchronously; one that runs past the watch's period has the hold broken (everything is
    /// sent at once) until it returns, so its length costs others at most one period's delay.
    /// </summary>
    public void Defer(IThreadPoolWorkItem item)
    {
        HoldWrites();
        var batch = _batch ??= Interlocked.Exchange(ref _spareBatch, null) ?? new ReadBatch(this);
        batch.Add(item);
        if (batch.IsFull)
        {
            StartBatch();
        }
    }

    /// <summary>A batch whose work has all run, back for the read loop to fill again.</summary>
    public void ReturnBatch(ReadBatch batch) => Interlocked.CompareExchange(ref _spareBatch, batch, null);

    /// <summary>Queues what this read has deferred to the pool (read loop only).</summary>
    private void StartBatch()
    {
        if (_batch is { IsEmpty: false } batch)
        {
            _batch = null;
            Interlocked.Increment(ref _queuedBatches);
            batch.Start();
        }
    }

    /// <summary>A batch queued by <see cref="StartBatch"/> has begun to run on the pool.</summary>
    public void QueuedBatchRunning() => Interlocked.Decrement(ref _queuedBatches);

    /// <summary>Counts one more call from the peer, unless <paramref name="limit"/> are already queued or running.</summary>
    public bool TryBeginIncomingCall(int limit)
    {
        if (Interlocked.Increment(ref _incomingCalls) <= limit)
        {
            return true;
        }

        Interlocked.Decrement(ref _incomingCalls);
        return false;
    }

    /// <summary>A call counted by <see cref="TryBeginIncomingCall"/> has ended.</summary>
    public void EndIncomingCall() => Interlocked.Decrement(ref _incomingCalls);

    /// <summary>Why the connection closed, once it has.</summary>
    public Exception? CloseReason { get; private set; }

    /// <summary>Canceled when the connection closes.</summary>
    public CancellationToken Closing => _closing.Token;

    /// <summary>
    /// The peer's calls running here, by id: their handlers' tokens fire on the peer's <c>$/cancelRequest</c>, and all of
    /// them when the connection closes.
    /// </summary>
    public JsonRpcCancellationScope Cancellation { get; }

    /// <summary>Environment.TickCount64 of the last message written.</summary>
    public long LastWriteTicks => Volatile.Read(ref _lastWriteTicks);

    public static async Task<ClientConnection> ConnectAsync(
        string host, int port, JsonRpc.Client.JsonRpcClientOptions options, Func<IJsonRpcFramer> framer, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        if (options.ConnectTimeout != Timeout.InfiniteTimeSpan)
        {
            timeout.CancelAfter(options.ConnectTimeout);
        }

        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        Stream? stream = null;
        try
        {
            await socket.ConnectAsync(host, port, timeout.Token).ConfigureAwait(false);
            stream = new NetworkStream(socket, ownsSocket: true);
            if (options.Tls is { } tls)
            {
                var ssl = new SslStream(stream, leaveInnerStreamOpen: false);
                stream = ssl;
                await ssl.AuthenticateAsClientAsync(WithTargetHost(tls, host), timeout.Token).ConfigureAwait(false);
            }

            return new ClientConnection(socket, null, stream, framer, $"{host}:{port}", options.CallTimeout);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            await DisposeAsync(stream, socket).ConfigureAwait(false);
            throw new TimeoutException($"Connecting to {host}:{port} took longer than {options.ConnectTimeout}.");
        }
        catch (SocketException ex)
        {
            // "Connection refused" alone does not say to what: the same error, still a SocketException, naming it.
            await DisposeAsync(stream, socket).ConfigureAwait(false);
            throw new ConnectSocketException(ex, $"{host}:{port}");
        }
        catch
        {
            await DisposeAsync(stream, socket).ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>
    /// Opens a WebSocket (ws:// or wss://) to <paramref name="uri"/>: each JSON-RPC message goes as one text message.
    /// The connection reads and writes it as a newline-delimited stream (<see cref="WebSocketLineStream"/>), so
    /// everything above the stream is the same as over TCP.
    /// </summary>
    public static async Task<ClientConnection> ConnectWebSocketAsync(
        Uri uri, JsonRpc.Client.JsonRpcClientOptions options, Func<IJsonRpcFramer> framer, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        if (options.ConnectTimeout != Timeout.InfiniteTimeSpan)
        {
            timeout.CancelAfter(options.ConnectTimeout);
        }

        var socket = new ClientWebSocket();
        socket.Options.KeepAliveInterval = TimeSpan.Zero; // the client's own keepAlive calls keep the router's timer fed
        if (options.AccessToken is { } token)
        {
            socket.Options.SetRequestHeader("Authorization", "Bearer " + token);
        }

        if (options.Tls is { } tls)
        {
            socket.Options.RemoteCertificateValidationCallback = tls.RemoteCertificateValidationCallback;
            if (tls.ClientCertificates is { } certificates)
            {
                socket.Options.ClientCertificates = certificates;
            }
        }

        try
        {
            await socket.ConnectAsync(uri, timeout.Token).ConfigureAwait(false);
            return new ClientConnection(null, socket, new WebSocketLineStream(socket), framer, uri.ToString(), options.CallTimeout);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            socket.Dispose();
            throw new TimeoutException($"Connecting to {uri} took longer than {options.ConnectTimeout}.");
        }
        catch (WebSocketException ex)
        {
            socket.Dispose();
            throw new IOException($"Could not open a WebSocket to {uri}: {ex.Message}", ex);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Starts the read loop and the write pump.</summary>
    public void Start(IConnectionOwner owner)
    {
        _owner = owner;
        _writing = Task.Run(PumpAsync);
        _reading = _readsEnded.Task;
        QueueReading();
    }

    /// <summary>
    /// Frames and queues one whole message. Completes at once unless more than <see cref="HighWater"/> bytes wait for
    /// the socket (the back-pressure point): then it waits until the pump has sent them down to <see cref="LowWater"/>,
    /// for at most the call timeout (<see cref="TimeoutException"/>). Throws <see cref="JsonRpcConnectionLostException"/>
    /// when the connection is closed.
    /// </summary>
    public ValueTask WriteAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken)
    {
        if (Volatile.Read(ref _unsent) >= HighWater)
        {
            return WriteWhenDrainedAsync(message, cancellationToken);
        }

        try
        {
            Write(message.Span);
            return default;
        }
        catch (Exception ex)
        {
            return ValueTask.FromException(ex);
        }
    }

    /// <summary>Closes the connection (idempotent) and tells the owner once.</summary>
    public void Close(Exception reason)
    {
        if (Interlocked.Exchange(ref _closed, 1) != 0)
        {
            return;
        }

        CloseReason = reason;
        _input.CancelPendingRead();

        // A reading parked behind a batch (that may be running this very close) sees the cancellation now, not at the
        // watch's look.
        ResumeParkedReading();
        _output.Reader.CancelPendingRead();
        if (_socket is not null)
        {
            try
            {
                _socket.Shutdown(SocketShutdown.Both);
            }
            catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
            {
                // Already gone.
            }

            _socket.Dispose();
        }
        else
        {
            _webSocket?.Abort();
        }

        try
        {
            _closing.Cancel();
        }
        catch (AggregateException)
        {
            // A handler's cancellation callback threw; that must not stop the close.
        }

        Interlocked.Exchange(ref _drained, null)?.TrySetResult();
        _owner?.OnClosed(this, reason);
    }

    public async ValueTask DisposeAsync()
    {
        if (_webSocket is not null && !IsClosed)
        {
            await CloseWebSocketAsync().ConfigureAwait(false);
        }

        Close(new ObjectDisposedException(nameof(JsonRpcClient)));
        await _reading.ConfigureAwait(false);
        await _writing.ConfigureAwait(false);
        lock (_writeGate)
        {
            if (!_outputCompleted)
            {
                _outputCompleted = true;
                _output.Writer.Complete();
            }
        }

        await DisposeAsync(_stream, _socket).ConfigureAwait(false);
        Cancellation.Dispose();
        _closing.Dispose();
    }

    /// <summary>
    /// A WebSocket client that is disposed leaves as a WebSocket should: what it wrote is sent, then a close frame
    /// (normal closure), so that the router sees a client that left rather than a transport that failed. Each step is
    /// bounded; a peer that does not take them is cut off as before.
    /// </summary>
    private async Task CloseWebSocketAsync()
    {
        lock (_writeGate)
        {
            _outputCompleted = true;
            _output.Writer.Complete();
        }

        try
        {
            await _writing.WaitAsync(GracefulCloseTimeout).ConfigureAwait(false);
            if (_webSocket is { State: WebSocketState.Open } socket)
            {
                using var timeout = new CancellationTokenSource(GracefulCloseTimeout);
                await socket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, null, timeout.Token).ConfigureAwait(false);
            }
        }
        catch (Exception ex) when (ex is TimeoutException or WebSocketException or OperationCanceledException or ObjectDisposedException or IOException)
        {
            // Not taken in time, or already gone: Close cuts it off.
        }
    }

    private JsonRpcConnectionLostException LostException()
        => new($"The connection to {EndPoint} is closed.", CloseReason);

    /// <summary>
    /// Copies one framed message into the outgoing pipe; the lock is held only for that copy. When this write is to
    /// leave now, the send happens on this thread after the lock (<see cref="WriterThreadScheduler"/>).
    /// </summary>
    private void Write(ReadOnlySpan<byte> message)
    {
        WriterThreadScheduler.Collect();
        try
        {
            WriteLocked(message);
        }
        finally
        {
            WriterThreadScheduler.RunCollected();
        }

        Volatile.Write(ref _lastWriteTicks, Environment.TickCount64);
    }

    private void WriteLocked(ReadOnlySpan<byte> message)
    {
        lock (_writeGate)
        {
            if (IsClosed || _outputCompleted)
            {
                throw LostException();
            }

            var writer = _output.Writer;
            var held = writer.UnflushedBytes;
            _writer.WriteMessage(writer, message);
            var framed = writer.UnflushedBytes - held;
            // Held only while another resuming caller may still add to it: the last one (or the only one, as in a
            // closed loop of one call at a time) sends at once, without waiting for its continuation to return.
            if (Volatile.Read(ref _resuming) <= 1 || _holdBroken || held + framed >= MaxHeldBytes)
            {
                FlushLocked(writer);
            }
            else if (!_holdWatched)
            {
                _holdWatched = true;
                PeriodWatch.Watch(this, _holdEpoch);
            }

            Interlocked.Add(ref _unsent, framed);
        }
    }

    /// <summary>Makes what is written visible to the pump (waking it); under <see cref="_writeGate"/>.</summary>
    private void FlushLocked(PipeWriter writer)
    {
        var flush = writer.FlushAsync(CancellationToken.None);
        Debug.Assert(flush.IsCompleted, "A pipe that never pauses flushes synchronously.");
        if (flush.GetAwaiter().GetResult().IsCompleted)
        {
            throw LostException();
        }
    }

    /// <summary>Sends what <see cref="Write"/> held back while answers were being handed out; under <see cref="_writeGate"/>.</summary>
    private void FlushHeldLocked()
    {
        if (IsClosed || _outputCompleted || _output.Writer.UnflushedBytes == 0)
        {
            return;
        }

        try
        {
            FlushLocked(_output.Writer);
        }
        catch (JsonRpcConnectionLostException)
        {
            // The pump has stopped: the connection is closing, and its calls fail with it.
        }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask WriteWhenDrainedAsync(ReadOnlyMemory<byte> message, CancellationToken cancellationToken)
    {
        while (Volatile.Read(ref _unsent) >= HighWater)
        {
            if (IsClosed)
            {
                throw LostException();
            }

            try
            {
                await DrainedAsync().WaitAsync(_sendTimeout, cancellationToken).ConfigureAwait(false);
            }
            catch (TimeoutException)
            {
                throw new TimeoutException($"The send buffer to {EndPoint} stayed full for {_sendTimeout}: the peer does not read.");
            }
        }

        Write(message.Span);
    }

    /// <summary>Completes once the pump has sent the backlog down to <see cref="LowWater"/> (or the connection closed).</summary>
    private Task DrainedAsync()
    {
        var drained = Volatile.Read(ref _drained);
        if (drained is null)
        {
            var created = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            drained = Interlocked.CompareExchange(ref _drained, created, null) ?? created;
        }

        // The pump may have drained between the caller's check and the publication above: re-check so no wake-up is lost.
        if (Volatile.Read(ref _unsent) < LowWater || IsClosed)
        {
            Interlocked.Exchange(ref _drained, null)?.TrySetResult();
        }

        return drained.Task;
    }

    /// <summary>
    /// The read loop. It is written with callbacks rather than as an async method so that the thread that read a message
    /// can run what it led to (<see cref="RunBatchBeforeReading"/>) before it reads again, and yet hand the reading to
    /// another thread when that work blocks: the caller resumed by an answer sends its next call before this thread
    /// asks the socket for more (a receive that usually finds nothing yet), and no pool thread has to be woken for it.
    /// </summary>
    private void ContinueReading()
    {
        while (true)
        {
            ValueTask<ReadResult> read;
            try
            {
                read = _input.ReadAsync();
            }
            catch (Exception ex)
            {
                _ = EndReadsAsync(ex);
                return;
            }

            if (!read.IsCompleted)
            {
                _pendingRead = read;
                read.ConfigureAwait(false).GetAwaiter().UnsafeOnCompleted(_onReadCompleted);
                return;
            }

            if (!HandledRead(read) || !RunBatchBeforeReading())
            {
                return;
            }
        }
    }

    /// <summary>The pending read has data (on a thread-pool thread of the socket's): handles it and reads on.</summary>
    private void OnReadCompleted()
    {
        var read = _pendingRead;
        _pendingRead = default;
        if (HandledRead(read) && RunBatchBeforeReading())
        {
            ContinueReading();
        }
    }

    /// <summary>Handles a completed read; false (and the loop ended) when the reading is over or failed.</summary>
    private bool HandledRead(ValueTask<ReadResult> read)
    {
        Exception? error = null;
        try
        {
            if (HandleRead(read.GetAwaiter().GetResult()))
            {
                return true;
            }
        }
        catch (Exception ex)
        {
            error = ex;
        }

        _ = EndReadsAsync(error);
        return false;
    }

    /// <summary>
    /// Runs the read's batch on the read loop's thread, the reading parked meanwhile. Returns whether this thread still
    /// reads on: if the batch ran a whole period past the watch's first look (an item blocks, or the items are slow), or
    /// the connection closed meanwhile, the reading went to the pool (<see cref="ResumeParkedReading"/>) and this thread
    /// leaves it.
    /// </summary>
    private bool RunBatchBeforeReading()
    {
        var batch = _batch;
        if (batch is null)
        {
            return true;
        }

        if (Volatile.Read(ref _queuedBatches) != 0)
        {
            // An earlier batch (a read that led to more than a batch holds) waits on the pool: this one goes behind it
            // rather than start first.
            StartBatch();
            return true;
        }

        _batch = null;
        Volatile.Write(ref _readingParked, 1);
        batch.RunBeforeReading();
        return Interlocked.Exchange(ref _readingParked, 0) == 1;
    }

    /// <summary>
    /// The watch found the batch that parked the reading still running: the reading goes on on the pool. Whoever takes
    /// the parked flag (this, or the batch's runner once done) is the one reader.
    /// </summary>
    public void ResumeParkedReading()
    {
        if (Interlocked.Exchange(ref _readingParked, 0) == 1)
        {
            QueueReading();
        }
    }

    private void QueueReading() => ThreadPool.UnsafeQueueUserWorkItem(static connection => connection.ContinueReading(), this, preferLocal: false);

    /// <summary>Hands every whole message of one read to the owner; false when reading has ended (closed or canceled).</summary>
    private bool HandleRead(ReadResult result)
    {
        var buffer = result.Buffer;
        try
        {
            if (result.IsCanceled)
            {
                return false;
            }

            while (_reader.TryReadMessage(ref buffer, out var message))
            {
                _owner!.OnMessage(this, message);
            }

            if (result.IsCompleted)
            {
                if (!buffer.IsEmpty)
                {
                    throw new InvalidDataException("The connection ended in the middle of a message.");
                }

                return false;
            }

            return true;
        }
        finally
        {
            _input.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    /// <summary>The read loop's end: what the last read led to still runs, then the connection closes.</summary>
    private async Task EndReadsAsync(Exception? error)
    {
        try
        {
            StartBatch();

            // Completed asynchronously: a WebSocket's stream sends its close frame (bounded) on DisposeAsync only.
            await _input.CompleteAsync(error).ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            error ??= ex;
        }
        finally
        {
            try
            {
                Close(error ?? new EndOfStreamException($"{EndPoint} closed the connection."));
            }
            finally
            {
                _readsEnded.TrySetResult();
            }
        }
    }

    private async Task PumpAsync()
    {
        var reader = _output.Reader;
        Exception? error = null;
        try
        {
            while (true)
            {
                ReadResult result;
                if (WriterThreadScheduler.IsRunningCollected && reader.TryRead(out result))
                {
                    if (!result.IsCanceled && !result.IsCompleted)
                    {
                        // On a writer's thread, with more to send already: the pump goes on on the pool rather than
                        // keep that thread for other writers' sends.
                        reader.AdvanceTo(result.Buffer.Start);
                        await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
                        result = await reader.ReadAsync().ConfigureAwait(false);
                    }
                }
                else
                {
                    result = await reader.ReadAsync().ConfigureAwait(false);
                }

                var buffer = result.Buffer;
                if (result.IsCanceled)
                {
                    break;
                }

                if (buffer.IsSingleSegment || !await TrySendGatheredAsync(buffer).ConfigureAwait(false))
                {
                    foreach (var segment in buffer)
                    {
                        await _stream.WriteAsync(segment).ConfigureAwait(false);
                    }
                }

                if (!buffer.IsEmpty)
                {
                    await _stream.FlushAsync().ConfigureAwait(false);
                }

                // The length must be read before AdvanceTo: the segments go back to the pool then.
                var sent = buffer.Length;
                reader.AdvanceTo(buffer.End);
                if (Interlocked.Add(ref _unsent, -sent) < LowWater && Volatile.Read(ref _drained) is not null)
                {
                    Interlocked.Exchange(ref _drained, null)?.TrySetResult();
                }

                if (result.IsCompleted)
                {
                    break;
                }
            }
        }
        catch (Exception ex)
        {
            error = ex;
        }
        finally
        {
            await reader.CompleteAsync(error).ConfigureAwait(false);
        }

        if (error is not null)
        {
            if (WriterThreadScheduler.IsRunningCollected)
            {
                // A send that failed on a writer's thread: closing (which tells the owner and runs callbacks) goes to the pool.
                ThreadPool.UnsafeQueueUserWorkItem(static state => state.Connection.Close(state.Error), (Connection: this, Error: error), preferLocal: false);
            }
            else
            {
                Close(error);
            }
        }
    }

    /// <summary>
    /// On a plain TCP connection, sends every buffered segment in one system call (a gathered send: one <c>sendmsg</c>
    /// with an entry per segment) rather than one write per 16 KB segment, so that a 100 KB message leaves in one
    /// send, not seven, and the router receives it whole. False (nothing sent) for TLS and WebSocket streams, which
    /// take the segments one by one.
    /// </summary>
    private async ValueTask<bool> TrySendGatheredAsync(ReadOnlySequence<byte> buffer)
    {
        if (_socket is null || _stream is not NetworkStream)
        {
            return false;
        }

        _gathered.Clear();
        foreach (var segment in buffer)
        {
            if (!System.Runtime.InteropServices.MemoryMarshal.TryGetArray(segment, out var array))
            {
                return false;
            }

            _gathered.Add(array);
        }

        // A stream socket's asynchronous send completes when every byte is sent (partial sends are continued).
        await _socket.SendAsync(_gathered, SocketFlags.None).ConfigureAwait(false);
        return true;
    }

    private static SslClientAuthenticationOptions WithTargetHost(SslClientAuthenticationOptions tls, string host)
    {
        if (!string.IsNullOrEmpty(tls.TargetHost))
        {
            return tls;
        }

        return new SslClientAuthenticationOptions
        {
            TargetHost = host,
            AllowRenegotiation = tls.AllowRenegotiation,
            AllowTlsResume = tls.AllowTlsResume,
            ApplicationProtocols = tls.ApplicationProtocols,
            CertificateChainPolicy = tls.CertificateChainPolicy,
            CertificateRevocationCheckMode = tls.CertificateRevocationCheckMode,
            CipherSuitesPolicy = tls.CipherSuitesPolicy,
            ClientCertificateContext = tls.ClientCertificateContext,
            ClientCertificates = tls.ClientCertificates,
            EnabledSslProtocols = tls.EnabledSslProtocols,
            EncryptionPolicy = tls.EncryptionPolicy,
            LocalCertificateSelectionCallback = tls.LocalCertificateSelectionCallback,
            RemoteCertificateValidationCallback = tls.RemoteCertificateValidationCallback,
        };
    }

    private static async ValueTask DisposeAsync(Stream? stream, Socket? socket)
    {
        if (stream is not null)
        {
            try
            {
                await stream.DisposeAsync().ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is IOException or ObjectDisposedException or SocketException)
            {
                // Closing a broken stream may fail; it is closed either way.
            }
        }

        socket?.Dispose();
    }

    /// <summary>A failed connect: the socket's own error and code, with the address it was for in the message.</summary>
    private sealed class ConnectSocketException(SocketException inner, string address) : SocketException((int)inner.SocketErrorCode)
    {
        public override string Message { get; } = $"Could not connect to {address}: {inner.Message}";
    }
}
