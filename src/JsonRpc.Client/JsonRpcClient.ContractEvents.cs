using JsonRpc.Client.Internal;
using JsonRpc.Contracts;
using JsonRpc.Protocol;

namespace JsonRpc.Client;

// Contract events. A served target's event goes to the peer as a notification named after it: a plain JSON-RPC peer
// (StreamJsonRpc) gets it directly; the router treats it as a published event and passes it to the event's
// subscribers. A proxy's event is raised by those notifications: directly from the peer, and, once this client is
// registered at a router, because the proxy subscribes to the event there while it has handlers.
public sealed partial class JsonRpcClient
{
    // The proxies' listeners by event name (guarded by _subscriptionGate), and a copy for the read loop to look in.
    private readonly Dictionary<string, EventSubscription> _listenersByName = new(StringComparer.Ordinal);
    private volatile Dictionary<string, EventSubscription> _listeners = new(StringComparer.Ordinal);

    // The listeners' events this client subscribed to at the router; changes go one at a time, in order.
    private readonly HashSet<string> _listenersAtRouter = new(StringComparer.Ordinal);
    private readonly SemaphoreSlim _listenerSync = new(1, 1);

    // What undoes each AddTarget: its events unsubscribed (on dispose).
    private readonly List<IDisposable> _targets = [];
    private ClientEventSender? _eventSender;

    /// <summary>Sends served targets' events to the peer.</summary>
    internal JsonRpcEventSender EventSender => _eventSender ??= new ClientEventSender(this);

    /// <summary>
    /// Runs <paramref name="handler"/> for each notification <paramref name="eventName"/> the peer sends, in arrival
    /// order and off the read loop (a handler that throws is logged). Once this client is registered at a router, the
    /// event is subscribed to there too while it has a listener.
    /// </summary>
    internal IDisposable Listen(string eventName, Action<RawJson> handler)
    {
        Func<RawJson, CancellationToken, ValueTask> run = (payload, _) =>
        {
            handler(payload);
            return default;
        };

        bool created;
        lock (_subscriptionGate)
        {
            created = !_listenersByName.TryGetValue(eventName, out var listener);
            if (created)
            {
                listener = new EventSubscription(eventName, _options.EventQueueCapacity, _logger);
                listener.Start();
                _listenersByName.Add(eventName, listener);
                _listeners = new Dictionary<string, EventSubscription>(_listenersByName, StringComparer.Ordinal);
            }

            listener!.AddHandler(run);
        }

        if (created && _name is not null)
        {
            _ = SyncListenerAsync(eventName);
        }

        return JsonRpcContractSupport.Registration(() => StopListening(eventName, run));
    }

    internal void AddTargetRegistration(IDisposable registration)
    {
        lock (_targets)
        {
            _targets.Add(registration);
        }
    }

    private void StopListening(string eventName, Func<RawJson, CancellationToken, ValueTask> run)
    {
        EventSubscription? emptied = null;
        lock (_subscriptionGate)
        {
            if (_listenersByName.TryGetValue(eventName, out var listener) && listener.RemoveHandler(run) == 0)
            {
                _listenersByName.Remove(eventName);
                _listeners = new Dictionary<string, EventSubscription>(_listenersByName, StringComparer.Ordinal);
                emptied = listener;
            }
        }

        if (emptied is not null)
        {
            _ = emptied.StopAsync();
            _ = SyncListenerAsync(eventName);
        }
    }

    /// <summary>Subscribes at the router to every event a proxy listens to (after <see cref="RegisterAsync"/>).</summary>
    private async Task SyncListenersAsync()
    {
        string[] names;
        lock (_subscriptionGate)
        {
            names = [.. _listenersByName.Keys];
        }

        foreach (var name in names)
        {
            await SyncListenerAsync(name).ConfigureAwait(false);
        }
    }

    /// <summary>
    /// Brings the router's subscription to <paramref name="eventName"/> in line with the listeners: subscribed while a
    /// proxy listens (and this client is registered), unsubscribed after, unless <see cref="SubscribeAsync(string, Action{RawJson}, CancellationToken)"/>
    /// holds it. A refusal is logged: a proxy's event then fires only for what the peer sends without a subscription.
    /// </summary>
    private async Task SyncListenerAsync(string eventName)
    {
        try
        {
            await _listenerSync.WaitAsync(_disposing.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            return;
        }

        try
        {
            bool wanted;
            lock (_subscriptionGate)
            {
                wanted = _listenersByName.ContainsKey(eventName) && _name is not null;
            }

            bool at;
            lock (_listenersAtRouter)
            {
                at = _listenersAtRouter.Contains(eventName);
            }

            if (wanted && !at)
            {
                await CallBuiltInAsync(null, RouterWire.Subscribe, NamedStringParams.Event, eventName, _disposing.Token).ConfigureAwait(false);
                lock (_listenersAtRouter)
                {
                    _listenersAtRouter.Add(eventName);
                }
            }
            else if (!wanted && at)
            {
                lock (_listenersAtRouter)
                {
                    _listenersAtRouter.Remove(eventName);
                }

                if (!_subscriptions.ContainsKey(eventName))
                {
                    await CallBuiltInAsync(null, RouterWire.Unsubscribe, NamedStringParams.Event, eventName, _disposing.Token).ConfigureAwait(false);
                }
            }
        }
        catch (Exception ex) when (!_disposing.IsCancellationRequested)
        {
            Log.ListenerSubscriptionFailed(_logger, eventName, ex);
        }
        catch (Exception) when (_disposing.IsCancellationRequested)
        {
            // Disposed: the connection and its subscriptions are gone.
        }
        finally
        {
            _listenerSync.Release();
        }
    }

    /// <summary>Whether the router subscription of <paramref name="eventName"/> belongs to a proxy's listener too.</summary>
    private bool ListenerHoldsSubscription(string eventName)
    {
        lock (_listenersAtRouter)
        {
            return _listenersAtRouter.Contains(eventName);
        }
    }

    /// <summary>The listeners' subscriptions to restore on a new connection (those SubscribeAsync holds are restored anyway).</summary>
    private string[] ListenerSubscriptionsToRestore()
    {
        var subscriptions = _subscriptions;
        var names = new List<string>();
        lock (_listenersAtRouter)
        {
            foreach (var name in _listenersAtRouter)
            {
                if (!subscriptions.ContainsKey(name))
                {
                    names.Add(name);
                }
            }
        }

        return [.. names];
    }

    /// <summary>Unsubscribes from served targets' events and stops the listeners' queues (on dispose).</summary>
    private async Task StopContractEventsAsync()
    {
        IDisposable[] targets;
        lock (_targets)
        {
            targets = [.. _targets];
            _targets.Clear();
        }

        foreach (var target in targets)
        {
            target.Dispose();
        }

        EventSubscription[] listeners;
        lock (_subscriptionGate)
        {
            listeners = [.. _listenersByName.Values];
        }

        foreach (var listener in listeners)
        {
            await listener.StopAsync().ConfigureAwait(false);
        }
    }

    /// <summary>Sends an event as a notification from the raiser's thread, without waiting; a failure is logged.</summary>
    private sealed class ClientEventSender(JsonRpcClient client) : JsonRpcEventSender
    {
        public override void Send(string eventName, ReadOnlySpan<byte> @params)
        {
            if (client._disposing.IsCancellationRequested)
            {
                return;
            }

            ValueTask pending;
            try
            {
                pending = client.NotifyAsync(eventName, RawJson.FromUtf8(@params.ToArray()), client._disposing.Token);
            }
            catch (Exception ex)
            {
                OnFailed(eventName, ex);
                return;
            }

            if (!pending.IsCompletedSuccessfully)
            {
                _ = ObserveAsync(eventName, pending);
            }
        }

        public override void OnFailed(string eventName, Exception exception)
        {
            if (!client._disposing.IsCancellationRequested)
            {
                Log.EventNotSent(client._logger, eventName, exception);
            }
        }

        private async Task ObserveAsync(string eventName, ValueTask pending)
        {
            try
            {
                await pending.ConfigureAwait(false);
            }
            catch (Exception ex)
            {
                OnFailed(eventName, ex);
            }
        }
    }
}
