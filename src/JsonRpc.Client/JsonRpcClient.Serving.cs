using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Client.Internal;
using JsonRpc.Dispatch;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Client;

public sealed partial class JsonRpcClient
{
    private readonly SemaphoreSlim _announceLock = new(1, 1);
    private readonly ConcurrentDictionary<string, bool> _announced = new(StringComparer.Ordinal);
    private JsonRpcDispatcher? _dispatcher;
    private volatile string? _name;

    /// <summary>The name this client registered with the router, or null.</summary>
    public string? Name => _name;

    /// <summary>The methods this client serves.</summary>
    public IReadOnlyCollection<string> Methods => _dispatcher?.Methods ?? [];

    private JsonRpcDispatcher Dispatcher
    {
        get
        {
            if (_dispatcher is { } dispatcher)
            {
                return dispatcher;
            }

            Interlocked.CompareExchange(ref _dispatcher, new JsonRpcDispatcher(new JsonRpcDispatcherOptions
            {
                SerializerOptions = _options.SerializerOptions,
                IncludeExceptionMessages = _options.IncludeExceptionMessages,
            }), null);
            return _dispatcher;
        }
    }

    /// <summary>
    /// Registers this client with the router under <paramref name="name"/> (<c>register_client</c>, with
    /// <see cref="JsonRpcClientOptions.AccessToken"/> when set), then announces every method added so far
    /// (<c>register_method</c>). After a reconnect both are repeated automatically, as are the subscriptions.
    /// </summary>
    /// <exception cref="JsonRpcRemoteException">The router refused, e.g. because the name is taken.</exception>
    public async Task RegisterAsync(string name, CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        await InvokeCoreAsync<RegisterParams, bool, IgnoredResult>(
            null, RouterWire.RegisterClient, new RegisterParams(name, _options.AccessToken), default, cancellationToken).ConfigureAwait(false);
        _name = name;
        await AnnounceMethodsAsync(cancellationToken).ConfigureAwait(false);
        await SyncListenersAsync().ConfigureAwait(false);
    }

    /// <summary>
    /// Announces to the router (<c>register_method</c>) every method added since the last announcement and waits until
    /// it confirmed them. Methods added after <see cref="RegisterAsync"/> are announced in the background anyway; await
    /// this before telling others to call them. Does nothing before <see cref="RegisterAsync"/>.
    /// </summary>
    public async Task AnnounceMethodsAsync(CancellationToken cancellationToken = default)
    {
        if (_name is null || _dispatcher is not { } dispatcher)
        {
            return;
        }

        await _announceLock.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            foreach (var method in dispatcher.Methods)
            {
                if (_announced.ContainsKey(method))
                {
                    continue;
                }

                await RegisterMethodAsync(null, dispatcher, method, cancellationToken).ConfigureAwait(false);
                _announced[method] = true;
            }
        }
        finally
        {
            _announceLock.Release();
        }
    }

    /// <summary>Stops serving <paramref name="method"/> and withdraws it from the router (<c>unregister_method</c>) when registered.</summary>
    /// <returns>False when no such method was served.</returns>
    public async Task<bool> RemoveMethodAsync(string method, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(method);
        if (_dispatcher is not { } dispatcher || !dispatcher.Remove(method))
        {
            return false;
        }

        if (_announced.TryRemove(method, out _) && _name is not null)
        {
            await CallBuiltInAsync(null, RouterWire.UnregisterMethod, NamedStringParams.Method, method, cancellationToken).ConfigureAwait(false);
        }

        return true;
    }

    /// <summary>Serves an async method that takes no params.</summary>
    /// <param name="method">The method name.</param>
    /// <param name="handler">Runs on the thread pool; its token is canceled when the peer sends <c>$/cancelRequest</c> for the call, or when the connection closes.</param>
    /// <param name="result">Metadata of the result type.</param>
    /// <returns>This client, for chaining.</returns>
    /// <exception cref="ArgumentException">A method of that name is already served.</exception>
    public JsonRpcClient AddMethod<TResult>(string method, Func<CancellationToken, ValueTask<TResult>> handler, JsonTypeInfo<TResult> result)
        => Added(method, Dispatcher.Add(NotReserved(method), handler, result));

    /// <summary>Serves a synchronous method that takes no params.</summary>
    /// <inheritdoc cref="AddMethod{TResult}(string, Func{CancellationToken, ValueTask{TResult}}, JsonTypeInfo{TResult})"/>
    public JsonRpcClient AddMethod<TResult>(string method, Func<TResult> handler, JsonTypeInfo<TResult> result)
        => Added(method, Dispatcher.Add(NotReserved(method), handler, result));

    /// <summary>
    /// Serves an async method whose whole params value (an object for named params, an array or list for positional
    /// ones) binds to <typeparamref name="TParams"/>; params that do not bind are answered with -32602.
    /// </summary>
    /// <inheritdoc cref="AddMethod{TResult}(string, Func{CancellationToken, ValueTask{TResult}}, JsonTypeInfo{TResult})"/>
    /// <param name="method">The method name.</param>
    /// <param name="handler">Runs on the thread pool; its token is canceled when the peer sends <c>$/cancelRequest</c> for the call, or when the connection closes.</param>
    /// <param name="parameters">Metadata of the params type.</param>
    /// <param name="result">Metadata of the result type.</param>
    public JsonRpcClient AddMethod<TParams, TResult>(
        string method, Func<TParams, CancellationToken, ValueTask<TResult>> handler, JsonTypeInfo<TParams> parameters, JsonTypeInfo<TResult> result)
        => Added(method, Dispatcher.Add(NotReserved(method), handler, parameters, result));

    /// <summary>Serves a synchronous method whose whole params value binds to <typeparamref name="TParams"/>.</summary>
    /// <inheritdoc cref="AddMethod{TParams, TResult}(string, Func{TParams, CancellationToken, ValueTask{TResult}}, JsonTypeInfo{TParams}, JsonTypeInfo{TResult})"/>
    public JsonRpcClient AddMethod<TParams, TResult>(
        string method, Func<TParams, TResult> handler, JsonTypeInfo<TParams> parameters, JsonTypeInfo<TResult> result)
        => Added(method, Dispatcher.Add(NotReserved(method), handler, parameters, result));

    /// <summary>Serves an async method of two parameters, bound by position (<c>[a, b]</c>) or by name.</summary>
    /// <param name="method">The method name.</param>
    /// <param name="name1">The first parameter's name.</param>
    /// <param name="name2">The second parameter's name.</param>
    /// <param name="handler">Runs on the thread pool; its token is canceled when the peer sends <c>$/cancelRequest</c> for the call, or when the connection closes.</param>
    /// <param name="type1">Metadata of the first parameter.</param>
    /// <param name="type2">Metadata of the second parameter.</param>
    /// <param name="result">Metadata of the result type.</param>
    /// <returns>This client, for chaining.</returns>
    public JsonRpcClient AddMethod<T1, T2, TResult>(
        string method, string name1, string name2, Func<T1, T2, CancellationToken, ValueTask<TResult>> handler,
        JsonTypeInfo<T1> type1, JsonTypeInfo<T2> type2, JsonTypeInfo<TResult> result)
        => Added(method, Dispatcher.Add(NotReserved(method), name1, name2, handler, type1, type2, result));

    /// <summary>Serves a synchronous method of two parameters, bound by position or by name.</summary>
    /// <inheritdoc cref="AddMethod{T1, T2, TResult}(string, string, string, Func{T1, T2, CancellationToken, ValueTask{TResult}}, JsonTypeInfo{T1}, JsonTypeInfo{T2}, JsonTypeInfo{TResult})"/>
    public JsonRpcClient AddMethod<T1, T2, TResult>(
        string method, string name1, string name2, Func<T1, T2, TResult> handler,
        JsonTypeInfo<T1> type1, JsonTypeInfo<T2> type2, JsonTypeInfo<TResult> result)
        => Added(method, Dispatcher.Add(NotReserved(method), name1, name2, handler, type1, type2, result));

    /// <summary>Serves an async method of three parameters, bound by position or by name.</summary>
    /// <param name="method">The method name.</param>
    /// <param name="name1">The first parameter's name.</param>
    /// <param name="name2">The second parameter's name.</param>
    /// <param name="name3">The third parameter's name.</param>
    /// <param name="handler">Runs on the thread pool; its token is canceled when the peer sends <c>$/cancelRequest</c> for the call, or when the connection closes.</param>
    /// <param name="type1">Metadata of the first parameter.</param>
    /// <param name="type2">Metadata of the second parameter.</param>
    /// <param name="type3">Metadata of the third parameter.</param>
    /// <param name="result">Metadata of the result type.</param>
    /// <returns>This client, for chaining.</returns>
    public JsonRpcClient AddMethod<T1, T2, T3, TResult>(
        string method, string name1, string name2, string name3, Func<T1, T2, T3, CancellationToken, ValueTask<TResult>> handler,
        JsonTypeInfo<T1> type1, JsonTypeInfo<T2> type2, JsonTypeInfo<T3> type3, JsonTypeInfo<TResult> result)
        => Added(method, Dispatcher.Add(NotReserved(method), name1, name2, name3, handler, type1, type2, type3, result));

    /// <summary>
    /// Serves a method on raw JSON: the handler gets the params exactly as sent (valid until its task completes; call
    /// <see cref="RawJson.Detach"/> to keep them) and returns the result's JSON.
    /// </summary>
    /// <inheritdoc cref="AddMethod{TResult}(string, Func{CancellationToken, ValueTask{TResult}}, JsonTypeInfo{TResult})"/>
    public JsonRpcClient AddRawMethod(string method, Func<RawJson, CancellationToken, ValueTask<RawJson>> handler)
        => Added(method, Dispatcher.AddRaw(NotReserved(method), handler));

    /// <summary>Serves a method without a result, typically the target of notifications (a request gets <c>null</c>).</summary>
    /// <inheritdoc cref="AddMethod{TParams, TResult}(string, Func{TParams, CancellationToken, ValueTask{TResult}}, JsonTypeInfo{TParams}, JsonTypeInfo{TResult})"/>
    public JsonRpcClient AddNotificationMethod<TParams>(string method, Func<TParams, CancellationToken, ValueTask> handler, JsonTypeInfo<TParams> parameters)
        => Added(method, Dispatcher.AddNotification(NotReserved(method), handler, parameters));

    /// <summary>
    /// Serves any delegate, its parameters bound by position or by name with <see cref="JsonRpcClientOptions.SerializerOptions"/>;
    /// a <see cref="CancellationToken"/> parameter gets the call's token, and a task result is awaited.
    /// </summary>
    /// <example><c>client.AddMethod("add", (int a, int b) => a + b);</c></example>
    /// <inheritdoc cref="AddMethod{TResult}(string, Func{CancellationToken, ValueTask{TResult}}, JsonTypeInfo{TResult})"/>
    [RequiresUnreferencedCode(ReflectionMessage)]
    [RequiresDynamicCode(DynamicCodeMessage)]
    public JsonRpcClient AddMethod(string method, Delegate handler)
        => Added(method, Dispatcher.Add(NotReserved(method), handler));

    /// <summary>Refuses names starting with <c>$/</c>: they are reserved for protocol extensions such as <c>$/cancelRequest</c>.</summary>
    private static string NotReserved(string name, [System.Runtime.CompilerServices.CallerArgumentExpression(nameof(name))] string? parameter = null)
    {
        ArgumentNullException.ThrowIfNull(name, parameter);
        if (JsonRpcProtocolMethods.IsReserved(name))
        {
            throw new ArgumentException(
                $"'{name}': names starting with '{JsonRpcProtocolMethods.ReservedPrefix}' are reserved for protocol extensions.", parameter);
        }

        return name;
    }

    private JsonRpcClient Added(string method, JsonRpcDispatcher dispatcher)
    {
        if (_name is not null && dispatcher.Contains(method))
        {
            _ = AnnounceInBackgroundAsync(method);
        }

        return this;
    }

    private async Task AnnounceInBackgroundAsync(string method)
    {
        try
        {
            await AnnounceMethodsAsync(_disposing.Token).ConfigureAwait(false);
        }
        catch (Exception ex) when (!_disposing.IsCancellationRequested)
        {
            Log.AnnounceFailed(_logger, method, ex);
        }
        catch (OperationCanceledException)
        {
            // Disposed.
        }
    }

    /// <summary>A request or notification from the peer: an event to queue, or a call of a served method to run.</summary>
    private void OnIncomingCall(ClientConnection connection, ReadOnlySpan<byte> message, in JsonRpcMessageInfo info)
    {
        if (JsonRpcProtocolMethods.IsCancelRequest(message, in info))
        {
            OnCancelRequest(connection, message, in info);
            return;
        }

        if (TryReportProgress(message, in info) || TryServeGenerator(connection, message, in info))
        {
            return;
        }

        if (info.Kind == JsonRpcMessageKind.Notification)
        {
            // An event: to SubscribeAsync's handlers and to the proxies that listen, each in its own queue.
            var matched = false;
            if (TryFindSubscription(message, info, _subscriptions, out var subscription))
            {
                subscription.Enqueue(info.HasParams ? message[info.Params] : default);
                matched = true;
            }

            if (TryFindSubscription(message, info, _listeners, out var listener))
            {
                listener.Enqueue(info.HasParams ? message[info.Params] : default);
                matched = true;
            }

            if (matched)
            {
                return;
            }
        }

        if (_dispatcher is not { } dispatcher)
        {
            if (info.Kind == JsonRpcMessageKind.Request)
            {
                SendError(connection, message[info.IdToken], JsonRpcErrorCodes.MethodNotFound, "Method not found");
            }

            return;
        }

        if (!connection.TryBeginIncomingCall(_options.MaxConcurrentIncomingCalls))
        {
            Log.IncomingCallRefused(_logger, connection.EndPoint, _options.MaxConcurrentIncomingCalls);
            if (info.Kind == JsonRpcMessageKind.Request)
            {
                SendError(connection, message[info.IdToken], JsonRpcErrorCodes.ServerErrorRangeEnd, "Server busy");
            }

            return;
        }

        // Tracked here on the read loop, before the handler is queued, so that a $/cancelRequest read next finds it.
        var id = info.Kind == JsonRpcMessageKind.Request ? info.GetId(message) : RequestId.None;
        var token = connection.Cancellation.Begin(id);
        connection.Defer(new IncomingCall(dispatcher, connection, _logger, message, info, id, token));
    }

    /// <summary>
    /// The peer's <c>$/cancelRequest</c>: as a notification it cancels the token of the peer's own call of that id (a
    /// call unknown or finished, or params without a usable id, change nothing); as a request it is answered -32600.
    /// </summary>
    private void OnCancelRequest(ClientConnection connection, ReadOnlySpan<byte> message, in JsonRpcMessageInfo info)
    {
        if (info.Kind == JsonRpcMessageKind.Request)
        {
            SendError(connection, message[info.IdToken], JsonRpcErrorCodes.InvalidRequest, "Invalid Request: $/cancelRequest is a notification");
            return;
        }

        if (!connection.Cancellation.Cancel(info.HasParams ? message[info.Params] : default))
        {
            Log.CancelIgnored(_logger, connection.EndPoint);
        }
    }

    // The router refuses larger descriptions (-32602); a method whose types make one is registered without it.
    private const int MaxDescriptionBytes = 32 * 1024;

    /// <summary><c>register_method</c> with the method's OpenRPC description (see <see cref="DescribeMethod"/>).</summary>
    private ValueTask<bool> RegisterMethodAsync(ClientConnection? connection, JsonRpcDispatcher dispatcher, string method, CancellationToken cancellationToken)
    {
        var description = dispatcher.GetDescription(method);
        if (description is not null && System.Text.Encoding.UTF8.GetByteCount(description.ToJsonString()) > MaxDescriptionBytes)
        {
            description = null;
        }

        return InvokeCoreAsync<RegisterMethodParams, bool, IgnoredResult>(
            connection, RouterWire.RegisterMethod, new RegisterMethodParams(method, description), default, cancellationToken);
    }

    /// <summary>
    /// Gives a served method the summary and description that its OpenRPC description carries; its params and result
    /// schemas are made from the handler's types (<see cref="JsonRpcDispatcher.GetDescription"/>). The description goes
    /// to the router with <c>register_method</c> (again, if the method was announced already), and <c>rpc.discover</c>
    /// shows it.
    /// </summary>
    /// <returns>False when no method of that name is served.</returns>
    public bool DescribeMethod(string method, string? summary, string? description)
    {
        ArgumentNullException.ThrowIfNull(method);
        if (_dispatcher is not { } dispatcher || !dispatcher.Describe(method, summary, description))
        {
            return false;
        }

        if (_announced.TryRemove(method, out _))
        {
            _ = AnnounceInBackgroundAsync(method);
        }

        return true;
    }

    /// <summary>Runs a router built-in method that takes one named string, e.g. <c>subscribe {"event": …}</c>.</summary>
    private ValueTask<bool> CallBuiltInAsync(ClientConnection? connection, string method, System.Text.Json.JsonEncodedText key, string value, CancellationToken cancellationToken)
        => InvokeCoreAsync<NamedStringParams, bool, IgnoredResult>(connection, method, new NamedStringParams(key, value), default, cancellationToken);

    /// <summary>
    /// Over TCP, with <see cref="JsonRpcClientOptions.AccessToken"/> set, authenticates a new connection before anything
    /// else is sent on it (<c>authenticate</c>), so that a caller that never registers is its identity too. Over a
    /// WebSocket the token went as <c>Authorization: Bearer</c> with the upgrade. A refused token fails the connection
    /// (the router answers Access denied and closes it).
    /// </summary>
    private async Task AuthenticateAsync(ClientConnection connection, CancellationToken cancellationToken)
    {
        if (_options.AccessToken is { } token && !IsWebSocket)
        {
            try
            {
                await CallBuiltInAsync(connection, RouterWire.Authenticate, NamedStringParams.Token, token, cancellationToken).ConfigureAwait(false);
            }
            catch (JsonRpcRemoteException ex) when (ex.Code == JsonRpc.Protocol.JsonRpcErrorCodes.MethodNotFound)
            {
                // A peer without authentication (a plain JSON-RPC server, an older router): the token still goes with
                // register_client.
            }
        }
    }

    /// <summary>Restores the registration, the methods and the subscriptions on a new connection, before it becomes current.</summary>
    private async Task<(int Methods, int Events)> RestoreAsync(ClientConnection connection, CancellationToken cancellationToken)
    {
        await AuthenticateAsync(connection, cancellationToken).ConfigureAwait(false);
        _announced.Clear();
        var methods = 0;
        if (_name is { } name)
        {
            await InvokeCoreAsync<RegisterParams, bool, IgnoredResult>(
                connection, RouterWire.RegisterClient, new RegisterParams(name, _options.AccessToken), default, cancellationToken).ConfigureAwait(false);
            foreach (var method in Methods)
            {
                await RegisterMethodAsync(connection, Dispatcher, method, cancellationToken).ConfigureAwait(false);
                _announced[method] = true;
                methods++;
            }
        }

        var events = 0;
        foreach (var eventName in _subscriptions.Keys)
        {
            await CallBuiltInAsync(connection, RouterWire.Subscribe, NamedStringParams.Event, eventName, cancellationToken).ConfigureAwait(false);
            events++;
        }

        foreach (var eventName in ListenerSubscriptionsToRestore())
        {
            await CallBuiltInAsync(connection, RouterWire.Subscribe, NamedStringParams.Event, eventName, cancellationToken).ConfigureAwait(false);
            events++;
        }

        return (methods, events);
    }
}
