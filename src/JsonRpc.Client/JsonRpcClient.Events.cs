using System.Diagnostics.CodeAnalysis;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Client.Internal;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Client;

public sealed partial class JsonRpcClient
{
    private const int MaxStackEventName = 256;

    private readonly Dictionary<string, EventSubscription> _subscriptionsByName = new(StringComparer.Ordinal);
    private readonly Lock _subscriptionGate = new();
    private volatile Dictionary<string, EventSubscription> _subscriptions = new(StringComparer.Ordinal);

    /// <summary>The events this client is subscribed to.</summary>
    public IReadOnlyCollection<string> Subscriptions => _subscriptions.Keys;

    /// <summary>
    /// Subscribes to <paramref name="eventName"/> at the router (<c>subscribe</c>; restored after a reconnect) and runs
    /// <paramref name="handler"/> for each event, in arrival order, off the read loop. Several handlers may share one event.
    /// </summary>
    /// <param name="eventName">The event name: the method of the notifications that publish it.</param>
    /// <param name="handler">Gets the payload (the notification's params, a private copy it may keep; absent when none).</param>
    /// <param name="cancellationToken">Cancels the subscribe call.</param>
    /// <exception cref="JsonRpcRemoteException">The router refused (e.g. the client is not registered, or the peer is no router).</exception>
    public Task SubscribeAsync(string eventName, Func<RawJson, CancellationToken, ValueTask> handler, CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrEmpty(eventName);
        NotReserved(eventName);
        ArgumentNullException.ThrowIfNull(handler);
        return SubscribeCoreAsync(eventName, handler, cancellationToken);
    }

    /// <summary>Subscribes with a synchronous handler.</summary>
    /// <inheritdoc cref="SubscribeAsync(string, Func{RawJson, CancellationToken, ValueTask}, CancellationToken)"/>
    public Task SubscribeAsync(string eventName, Action<RawJson> handler, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(handler);
        return SubscribeAsync(eventName, (payload, _) =>
        {
            handler(payload);
            return default;
        }, cancellationToken);
    }

    /// <summary>
    /// Subscribes with a handler that gets the payload as <typeparamref name="T"/>. A payload published as a single
    /// value travels as <c>[value]</c> (params must be structured) and is unwrapped again for a non-collection type.
    /// </summary>
    /// <param name="eventName">The event name.</param>
    /// <param name="payloadType">Metadata of the payload type.</param>
    /// <param name="handler">Gets the payload; default when absent. A payload that does not fit is logged and skipped.</param>
    /// <param name="cancellationToken">Cancels the subscribe call.</param>
    /// <exception cref="JsonRpcRemoteException">The router refused.</exception>
    public Task SubscribeAsync<T>(string eventName, JsonTypeInfo<T> payloadType, Func<T?, CancellationToken, ValueTask> handler, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(payloadType);
        ArgumentNullException.ThrowIfNull(handler);
        return SubscribeAsync(eventName, (payload, ct) => handler(ReadPayload(payload, payloadType), ct), cancellationToken);
    }

    /// <summary>Subscribes with a synchronous typed handler.</summary>
    /// <inheritdoc cref="SubscribeAsync{T}(string, JsonTypeInfo{T}, Func{T, CancellationToken, ValueTask}, CancellationToken)"/>
    public Task SubscribeAsync<T>(string eventName, JsonTypeInfo<T> payloadType, Action<T?> handler, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(payloadType);
        ArgumentNullException.ThrowIfNull(handler);
        return SubscribeAsync(eventName, (payload, _) =>
        {
            handler(ReadPayload(payload, payloadType));
            return default;
        }, cancellationToken);
    }

    /// <summary>Subscribes with a typed handler, deserializing with <see cref="JsonRpcClientOptions.SerializerOptions"/>.</summary>
    /// <inheritdoc cref="SubscribeAsync{T}(string, JsonTypeInfo{T}, Action{T}, CancellationToken)"/>
    [RequiresUnreferencedCode(ReflectionMessage)]
    [RequiresDynamicCode(DynamicCodeMessage)]
    public Task SubscribeAsync<T>(string eventName, Action<T?> handler, CancellationToken cancellationToken = default)
        => SubscribeAsync(eventName, (JsonTypeInfo<T>)ReflectionOptions.GetTypeInfo(typeof(T)), handler, cancellationToken);

    /// <summary>Removes every handler of <paramref name="eventName"/> and unsubscribes at the router (<c>unsubscribe</c>).</summary>
    /// <returns>False when the client was not subscribed.</returns>
    public async Task<bool> UnsubscribeAsync(string eventName, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(eventName);
        EventSubscription? subscription;
        lock (_subscriptionGate)
        {
            if (!_subscriptionsByName.Remove(eventName, out subscription))
            {
                return false;
            }

            _subscriptions = new Dictionary<string, EventSubscription>(_subscriptionsByName, StringComparer.Ordinal);
        }

        await subscription.StopAsync().ConfigureAwait(false);
        if (!ListenerHoldsSubscription(eventName))
        {
            await CallBuiltInAsync(null, RouterWire.Unsubscribe, NamedStringParams.Event, eventName, cancellationToken).ConfigureAwait(false);
        }

        return true;
    }

    /// <summary>
    /// Publishes an event: a notification whose method is the event name, which the router passes to every subscriber
    /// but the sender.
    /// </summary>
    /// <param name="eventName">The event name.</param>
    /// <param name="payload">A JSON object or array, or absent; any other value is sent as <c>[value]</c>.</param>
    /// <param name="cancellationToken">Cancels waiting for a connection or for room in the send buffer.</param>
    public ValueTask PublishAsync(string eventName, RawJson payload = default, CancellationToken cancellationToken = default)
        => NotifyAsync(eventName, payload, cancellationToken);

    /// <summary>Publishes an event with a typed payload, serialized through metadata.</summary>
    /// <inheritdoc cref="PublishAsync(string, RawJson, CancellationToken)"/>
    /// <param name="eventName">The event name.</param>
    /// <param name="payload">The payload; a value that is not an object or collection is sent as <c>[value]</c>.</param>
    /// <param name="payloadType">Metadata of the payload type.</param>
    /// <param name="cancellationToken">Cancels waiting for a connection or for room in the send buffer.</param>
    public ValueTask PublishAsync<T>(string eventName, T payload, JsonTypeInfo<T> payloadType, CancellationToken cancellationToken = default)
        => NotifyAsync(eventName, payload, payloadType, cancellationToken);

    /// <summary>Publishes an event, serializing the payload with <see cref="JsonRpcClientOptions.SerializerOptions"/>.</summary>
    /// <inheritdoc cref="PublishAsync{T}(string, T, JsonTypeInfo{T}, CancellationToken)"/>
    [RequiresUnreferencedCode(ReflectionMessage)]
    [RequiresDynamicCode(DynamicCodeMessage)]
    public ValueTask PublishAsync(string eventName, object? payload, CancellationToken cancellationToken = default)
        => NotifyAsync(eventName, payload, cancellationToken);

    private async Task SubscribeCoreAsync(string eventName, Func<RawJson, CancellationToken, ValueTask> handler, CancellationToken cancellationToken)
    {
        EventSubscription? created = null;
        Task? pending = null;
        lock (_subscriptionGate)
        {
            if (_subscriptionsByName.TryGetValue(eventName, out var existing))
            {
                existing.AddHandler(handler);
                pending = existing.Confirmed;
            }
            else
            {
                created = new EventSubscription(eventName, _options.EventQueueCapacity, _logger);
                created.AddHandler(handler);
                created.Start();
                _subscriptionsByName.Add(eventName, created);
                _subscriptions = new Dictionary<string, EventSubscription>(_subscriptionsByName, StringComparer.Ordinal);
            }
        }

        if (pending is not null)
        {
            // Another call is subscribing to this event: done only once the peer has agreed, and failed if it refuses.
            await pending.WaitAsync(cancellationToken).ConfigureAwait(false);
            return;
        }

        try
        {
            await CallBuiltInAsync(null, RouterWire.Subscribe, NamedStringParams.Event, eventName, cancellationToken).ConfigureAwait(false);
            created!.Confirm();
        }
        catch (Exception ex)
        {
            created!.Refuse(ex);
            lock (_subscriptionGate)
            {
                if (_subscriptionsByName.TryGetValue(eventName, out var current) && ReferenceEquals(current, created))
                {
                    _subscriptionsByName.Remove(eventName);
                    _subscriptions = new Dictionary<string, EventSubscription>(_subscriptionsByName, StringComparer.Ordinal);
                }
            }

            await created.StopAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>Finds the subscription a notification's method names, without allocating for names up to 256 bytes.</summary>
    private static bool TryFindSubscription(
        ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, Dictionary<string, EventSubscription> subscriptions, [NotNullWhen(true)] out EventSubscription? subscription)
    {
        subscription = null;
        if (subscriptions.Count == 0)
        {
            return false;
        }

        var raw = message[info.Method];
        if (raw.Length > MaxStackEventName)
        {
            Span<byte> big = new byte[raw.Length];
            return subscriptions.TryGetValue(Encoding.UTF8.GetString(info.GetMethod(message, big)), out subscription);
        }

        Span<byte> scratch = stackalloc byte[MaxStackEventName];
        var name = info.GetMethod(message, scratch);
        Span<char> chars = stackalloc char[MaxStackEventName];
        return Encoding.UTF8.TryGetChars(name, chars, out var length)
            && subscriptions.GetAlternateLookup<ReadOnlySpan<char>>().TryGetValue(chars[..length], out subscription);
    }

    private static T? ReadPayload<T>(RawJson payload, JsonTypeInfo<T> payloadType)
    {
        if (payload.IsEmpty)
        {
            return default;
        }

        var span = payload.Span;
        if (payloadType.Kind == JsonTypeInfoKind.None && TryUnwrapSingle(span, out var single))
        {
            span = span[single];
        }

        return JsonSerializer.Deserialize(span, payloadType);
    }

    /// <summary>The one element of a one-element array.</summary>
    private static bool TryUnwrapSingle(ReadOnlySpan<byte> json, out Range element)
    {
        element = default;
        var reader = new Utf8JsonReader(json);
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartArray || !reader.Read() || reader.TokenType == JsonTokenType.EndArray)
        {
            return false;
        }

        var start = (int)reader.TokenStartIndex;
        reader.Skip();
        var end = (int)reader.BytesConsumed;
        if (!reader.Read() || reader.TokenType != JsonTokenType.EndArray)
        {
            return false;
        }

        element = new Range(start, end);
        return true;
    }

    private async Task StopEventQueuesAsync()
    {
        EventSubscription[] all;
        lock (_subscriptionGate)
        {
            all = [.. _subscriptionsByName.Values];
        }

        foreach (var subscription in all)
        {
            await subscription.StopAsync().ConfigureAwait(false);
        }
    }
}
