using System.Threading.Channels;
using JsonRpc.Protocol;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Client.Internal;

/// <summary>
/// The local handlers of one event and the bounded queue that feeds them in arrival order, off the read loop. When
/// the handlers fall more than the queue's capacity behind, new events are dropped and logged rather than buffered
/// without bound or allowed to stall the connection.
/// </summary>
internal sealed class EventSubscription
{
    private static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(1);

    private readonly Channel<RawJson> _queue;
    private readonly ILogger _logger;
    private readonly CancellationTokenSource _stop = new();
    private readonly TaskCompletionSource _confirmed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Lock _gate = new();
    private readonly int _capacity;
    private Func<RawJson, CancellationToken, ValueTask>[] _handlers = [];
    private Task _pump = Task.CompletedTask;

    public EventSubscription(string name, int capacity, ILogger logger)
    {
        Name = name;
        _capacity = capacity;
        _logger = logger;
        _queue = Channel.CreateBounded<RawJson>(new BoundedChannelOptions(capacity)
        {
            SingleReader = true,
            SingleWriter = false, // an old connection's read loop may still finish while a new one starts
            FullMode = BoundedChannelFullMode.Wait, // TryWrite then fails instead of blocking: the read loop never waits
        });
    }

    public string Name { get; }

    public int HandlerCount => Volatile.Read(ref _handlers).Length;

    /// <summary>Completes when the peer accepted the subscription; faults with the reason when it refused.</summary>
    public Task Confirmed => _confirmed.Task;

    /// <summary>The peer accepted the subscription.</summary>
    public void Confirm() => _confirmed.TrySetResult();

    /// <summary>The peer refused the subscription (or it could not be asked).</summary>
    public void Refuse(Exception reason)
    {
        if (_confirmed.TrySetException(reason))
        {
            _ = _confirmed.Task.Exception; // observed: nobody else may be waiting
        }
    }

    public void Start() => _pump = Task.Run(PumpAsync);

    public void AddHandler(Func<RawJson, CancellationToken, ValueTask> handler)
    {
        lock (_gate)
        {
            _handlers = [.. _handlers, handler];
        }
    }

    /// <summary>Removes one handler; returns how many are left.</summary>
    public int RemoveHandler(Func<RawJson, CancellationToken, ValueTask> handler)
    {
        lock (_gate)
        {
            var index = Array.IndexOf(_handlers, handler);
            if (index >= 0)
            {
                _handlers = [.. _handlers.AsSpan(0, index), .. _handlers.AsSpan(index + 1)];
            }

            return _handlers.Length;
        }
    }

    /// <summary>Queues one event's payload (copied). Called on the read loop; never blocks.</summary>
    public void Enqueue(ReadOnlySpan<byte> payload)
    {
        var copy = payload.IsEmpty ? default : RawJson.FromUtf8(payload.ToArray());
        if (!_queue.Writer.TryWrite(copy))
        {
            Log.EventDropped(_logger, Name, _capacity);
        }
    }

    /// <summary>
    /// Stops delivering: queued events are dropped and the running handler's token is canceled. Waits for that handler
    /// for at most <see cref="StopGrace"/>: one that ignores its token is abandoned, never waited for without end.
    /// </summary>
    public async Task StopAsync()
    {
        _queue.Writer.TryComplete();
        await _stop.CancelAsync().ConfigureAwait(false);
        try
        {
            await _pump.WaitAsync(StopGrace).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is OperationCanceledException or TimeoutException)
        {
            // Stopped, or a handler that does not stop: abandoned.
        }
    }

    private async Task PumpAsync()
    {
        var token = _stop.Token;
        await foreach (var payload in _queue.Reader.ReadAllAsync(token).ConfigureAwait(false))
        {
            foreach (var handler in Volatile.Read(ref _handlers))
            {
                try
                {
                    await handler(payload, token).ConfigureAwait(false);
                }
                catch (OperationCanceledException) when (token.IsCancellationRequested)
                {
                    return;
                }
                catch (Exception ex)
                {
                    Log.EventHandlerFailed(_logger, Name, ex);
                }
            }
        }
    }
}
