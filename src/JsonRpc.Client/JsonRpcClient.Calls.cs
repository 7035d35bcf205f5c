using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Client.Internal;
using JsonRpc.Protocol;

namespace JsonRpc.Client;

public sealed partial class JsonRpcClient
{
    private const string ReflectionMessage = "Serializes with reflection through JsonRpcClientOptions.SerializerOptions; use an overload that takes JsonTypeInfo for trimming.";
    private JsonSerializerOptions? _reflectionOptions;

    private const string DynamicCodeMessage = "Serializes with reflection through JsonRpcClientOptions.SerializerOptions; use an overload that takes JsonTypeInfo for native AOT.";

    /// <summary>Calls <paramref name="method"/> with params that are already JSON and returns the result as JSON.</summary>
    /// <param name="method">The method name.</param>
    /// <param name="params">A JSON object (named) or array (positional), or absent; any other value is sent as <c>[value]</c>.</param>
    /// <param name="cancellationToken">Abandons the call: it throws <see cref="OperationCanceledException"/> at once, the peer is sent <c>$/cancelRequest</c> for it, and its late answer is dropped.</param>
    /// <returns>The result, exactly as received, in a copy of its own.</returns>
    /// <exception cref="JsonRpcRemoteException">The peer answered with an error.</exception>
    /// <exception cref="TimeoutException">No answer within <see cref="JsonRpcClientOptions.CallTimeout"/>.</exception>
    /// <exception cref="JsonRpcConnectionLostException">The connection was lost before the answer came.</exception>
    public ValueTask<RawJson> CallAsync(string method, RawJson @params = default, CancellationToken cancellationToken = default)
        => InvokeCoreAsync<RawParams, RawJson, RawResult>(null, method, new RawParams(@params), default, cancellationToken);

    /// <summary>
    /// Calls <paramref name="method"/> with params that are already JSON and appends the result, exactly as received, to
    /// <paramref name="result"/>: nothing is allocated for it. For large results read call after call (an owned copy of
    /// 85 KB or more is a large-object-heap allocation each time), or to pass the bytes on (a <c>PipeWriter</c>, a reused
    /// <see cref="ArrayBufferWriter{T}"/>).
    /// </summary>
    /// <param name="method">The method name.</param>
    /// <param name="params">A JSON object (named) or array (positional), or absent; any other value is sent as <c>[value]</c>.</param>
    /// <param name="result">
    /// Receives the result once the call is answered: written on a thread-pool thread (never on the caller's
    /// synchronization context) just before the returned task completes, and untouched when the call fails (an error
    /// answer, cancellation, timeout, a lost connection). Until then it must not be used elsewhere, by another call at the
    /// same time or by a caller that stopped waiting (<c>WaitAsync</c>): the answer may still be written into it. The
    /// client does not flush it or keep it; an exception it throws is the call's.
    /// </param>
    /// <param name="cancellationToken">Abandons the call: it throws <see cref="OperationCanceledException"/> at once, the peer is sent <c>$/cancelRequest</c> for it, and its late answer is dropped.</param>
    /// <returns>How many bytes were appended to <paramref name="result"/>.</returns>
    /// <exception cref="JsonRpcRemoteException">The peer answered with an error.</exception>
    /// <exception cref="TimeoutException">No answer within <see cref="JsonRpcClientOptions.CallTimeout"/>.</exception>
    /// <exception cref="JsonRpcConnectionLostException">The connection was lost before the answer came.</exception>
    public ValueTask<int> CallAsync(string method, RawJson @params, IBufferWriter<byte> result, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(result);
        return InvokeCoreAsync<RawParams, int, BufferWriterResult>(null, method, new RawParams(@params), new BufferWriterResult(result), cancellationToken);
    }

    /// <summary>Calls <paramref name="method"/> with params that are already JSON and deserializes the result.</summary>
    /// <inheritdoc cref="CallAsync(string, RawJson, CancellationToken)"/>
    /// <param name="method">The method name.</param>
    /// <param name="params">A JSON object (named) or array (positional), or absent.</param>
    /// <param name="resultType">Metadata of the result type, e.g. from a source-generated JsonSerializerContext.</param>
    /// <param name="cancellationToken">Abandons the call.</param>
    /// <exception cref="System.Text.Json.JsonException">The result does not fit <typeparamref name="TResult"/>.</exception>
    public ValueTask<TResult?> CallAsync<TResult>(
        string method, RawJson @params, JsonTypeInfo<TResult> resultType, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(resultType);
        return InvokeCoreAsync<RawParams, TResult?, TypedResult<TResult>>(
            null, method, new RawParams(@params), new TypedResult<TResult>(resultType), cancellationToken);
    }

    /// <summary>Calls <paramref name="method"/> with typed params and result, serialized through metadata (trimming and AOT safe).</summary>
    /// <inheritdoc cref="CallAsync(string, RawJson, CancellationToken)"/>
    /// <param name="method">The method name.</param>
    /// <param name="params">
    /// The params: a type that serializes to a JSON object is sent as named params, a collection as positional params,
    /// any other value as the one positional argument <c>[value]</c>; null sends no params.
    /// </param>
    /// <param name="paramsType">Metadata of the params type.</param>
    /// <param name="resultType">Metadata of the result type.</param>
    /// <param name="cancellationToken">Abandons the call.</param>
    /// <exception cref="System.Text.Json.JsonException">The result does not fit <typeparamref name="TResult"/>.</exception>
    public ValueTask<TResult?> CallAsync<TParams, TResult>(
        string method, TParams @params, JsonTypeInfo<TParams> paramsType, JsonTypeInfo<TResult> resultType, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(paramsType);
        ArgumentNullException.ThrowIfNull(resultType);
        return InvokeCoreAsync<TypedParams<TParams>, TResult?, TypedResult<TResult>>(
            null, method, new TypedParams<TParams>(@params, paramsType), new TypedResult<TResult>(resultType), cancellationToken);
    }

    /// <summary>Calls <paramref name="method"/> with two typed arguments by position, <c>[arg1, arg2]</c> (trimming and AOT safe).</summary>
    /// <inheritdoc cref="CallAsync(string, RawJson, CancellationToken)"/>
    /// <param name="method">The method name.</param>
    /// <param name="arg1">The first argument.</param>
    /// <param name="arg2">The second argument.</param>
    /// <param name="type1">Metadata of the first argument's type.</param>
    /// <param name="type2">Metadata of the second argument's type.</param>
    /// <param name="resultType">Metadata of the result type.</param>
    /// <param name="cancellationToken">Abandons the call.</param>
    public ValueTask<TResult?> CallAsync<T1, T2, TResult>(
        string method, T1 arg1, T2 arg2, JsonTypeInfo<T1> type1, JsonTypeInfo<T2> type2, JsonTypeInfo<TResult> resultType, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(type1);
        ArgumentNullException.ThrowIfNull(type2);
        ArgumentNullException.ThrowIfNull(resultType);
        return InvokeCoreAsync<PositionalParams<T1, T2>, TResult?, TypedResult<TResult>>(
            null, method, new PositionalParams<T1, T2>(arg1, arg2, type1, type2), new TypedResult<TResult>(resultType), cancellationToken);
    }

    /// <summary>Calls <paramref name="method"/> with three typed arguments by position, <c>[arg1, arg2, arg3]</c> (trimming and AOT safe).</summary>
    /// <inheritdoc cref="CallAsync{T1, T2, TResult}(string, T1, T2, JsonTypeInfo{T1}, JsonTypeInfo{T2}, JsonTypeInfo{TResult}, CancellationToken)"/>
    /// <param name="method">The method name.</param>
    /// <param name="arg1">The first argument.</param>
    /// <param name="arg2">The second argument.</param>
    /// <param name="arg3">The third argument.</param>
    /// <param name="type1">Metadata of the first argument's type.</param>
    /// <param name="type2">Metadata of the second argument's type.</param>
    /// <param name="type3">Metadata of the third argument's type.</param>
    /// <param name="resultType">Metadata of the result type.</param>
    /// <param name="cancellationToken">Abandons the call.</param>
    public ValueTask<TResult?> CallAsync<T1, T2, T3, TResult>(
        string method, T1 arg1, T2 arg2, T3 arg3, JsonTypeInfo<T1> type1, JsonTypeInfo<T2> type2, JsonTypeInfo<T3> type3,
        JsonTypeInfo<TResult> resultType, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(type1);
        ArgumentNullException.ThrowIfNull(type2);
        ArgumentNullException.ThrowIfNull(type3);
        ArgumentNullException.ThrowIfNull(resultType);
        return InvokeCoreAsync<PositionalParams<T1, T2, T3>, TResult?, TypedResult<TResult>>(
            null, method, new PositionalParams<T1, T2, T3>(arg1, arg2, arg3, type1, type2, type3), new TypedResult<TResult>(resultType), cancellationToken);
    }

    /// <summary>
    /// Calls <paramref name="method"/>, serializing params and result with <see cref="JsonRpcClientOptions.SerializerOptions"/>.
    /// </summary>
    /// <inheritdoc cref="CallAsync(string, RawJson, CancellationToken)"/>
    /// <param name="method">The method name.</param>
    /// <param name="params">
    /// Positional params as an array or list (<c>new object?[] { 1, "a" }</c>), named params as an object, anonymous
    /// object or dictionary (<c>new { a = 1 }</c>), a <see cref="RawJson"/> as it is; any other value is sent as the
    /// one positional argument <c>[value]</c>; null sends no params.
    /// </param>
    /// <param name="cancellationToken">Abandons the call.</param>
    /// <exception cref="System.Text.Json.JsonException">The result does not fit <typeparamref name="TResult"/>.</exception>
    [RequiresUnreferencedCode(ReflectionMessage)]
    [RequiresDynamicCode(DynamicCodeMessage)]
    public ValueTask<TResult?> CallAsync<TResult>(string method, object? @params = null, CancellationToken cancellationToken = default)
    {
        var resultType = (JsonTypeInfo<TResult>)ReflectionOptions.GetTypeInfo(typeof(TResult));
        return InvokeCoreAsync<ObjectParams, TResult?, TypedResult<TResult>>(
            null, method, new ObjectParams(@params, ReflectionOptions), new TypedResult<TResult>(resultType), cancellationToken);
    }

    /// <summary>Calls and blocks until the answer: for scripts and initialization, never on a UI or request thread.</summary>
    /// <inheritdoc cref="CallAsync(string, RawJson, CancellationToken)"/>
    public RawJson Call(string method, RawJson @params = default, CancellationToken cancellationToken = default)
        => Wait(CallAsync(method, @params, cancellationToken));

    /// <summary>Calls and blocks until the answer: for scripts and initialization, never on a UI or request thread.</summary>
    /// <inheritdoc cref="CallAsync(string, RawJson, IBufferWriter{byte}, CancellationToken)"/>
    public int Call(string method, RawJson @params, IBufferWriter<byte> result, CancellationToken cancellationToken = default)
        => Wait(CallAsync(method, @params, result, cancellationToken));

    /// <summary>Calls and blocks until the answer: for scripts and initialization, never on a UI or request thread.</summary>
    /// <inheritdoc cref="CallAsync{TResult}(string, RawJson, JsonTypeInfo{TResult}, CancellationToken)"/>
    public TResult? Call<TResult>(string method, RawJson @params, JsonTypeInfo<TResult> resultType, CancellationToken cancellationToken = default)
        => Wait(CallAsync(method, @params, resultType, cancellationToken));

    /// <summary>Calls and blocks until the answer: for scripts and initialization, never on a UI or request thread.</summary>
    /// <inheritdoc cref="CallAsync{TParams, TResult}(string, TParams, JsonTypeInfo{TParams}, JsonTypeInfo{TResult}, CancellationToken)"/>
    public TResult? Call<TParams, TResult>(
        string method, TParams @params, JsonTypeInfo<TParams> paramsType, JsonTypeInfo<TResult> resultType, CancellationToken cancellationToken = default)
        => Wait(CallAsync(method, @params, paramsType, resultType, cancellationToken));

    /// <summary>Calls and blocks until the answer: for scripts and initialization, never on a UI or request thread.</summary>
    /// <inheritdoc cref="CallAsync{TResult}(string, object?, CancellationToken)"/>
    [RequiresUnreferencedCode(ReflectionMessage)]
    [RequiresDynamicCode(DynamicCodeMessage)]
    public TResult? Call<TResult>(string method, object? @params = null, CancellationToken cancellationToken = default)
        => Wait(CallAsync<TResult>(method, @params, cancellationToken));

    /// <summary>Sends a notification: a call without an answer. Completes once the message is queued for sending.</summary>
    /// <param name="method">The method name.</param>
    /// <param name="params">A JSON object or array, or absent; any other value is sent as <c>[value]</c>.</param>
    /// <param name="cancellationToken">Cancels waiting for a connection or for room in the send buffer.</param>
    /// <exception cref="JsonRpcConnectionLostException">There is no connection (and none is coming).</exception>
    public ValueTask NotifyAsync(string method, RawJson @params = default, CancellationToken cancellationToken = default)
        => NotifyCoreAsync(method, new RawParams(@params), cancellationToken);

    /// <summary>Sends a notification with typed params, serialized through metadata.</summary>
    /// <inheritdoc cref="NotifyAsync(string, RawJson, CancellationToken)"/>
    public ValueTask NotifyAsync<TParams>(string method, TParams @params, JsonTypeInfo<TParams> paramsType, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(paramsType);
        return NotifyCoreAsync(method, new TypedParams<TParams>(@params, paramsType), cancellationToken);
    }

    /// <summary>Sends a notification, serializing params with <see cref="JsonRpcClientOptions.SerializerOptions"/>.</summary>
    /// <inheritdoc cref="NotifyAsync(string, RawJson, CancellationToken)"/>
    [RequiresUnreferencedCode(ReflectionMessage)]
    [RequiresDynamicCode(DynamicCodeMessage)]
    public ValueTask NotifyAsync(string method, object? @params, CancellationToken cancellationToken = default)
        => NotifyCoreAsync(method, new ObjectParams(@params, ReflectionOptions), cancellationToken);

    /// <summary>The configured serializer options, with the reflection resolver when they name none; read-only from then on.</summary>
    private JsonSerializerOptions ReflectionOptions
    {
        [RequiresUnreferencedCode(ReflectionMessage)]
        [RequiresDynamicCode(DynamicCodeMessage)]
        get
        {
            if (_reflectionOptions is { } ready)
            {
                return ready;
            }

            var options = _options.SerializerOptions;
            if (options.TypeInfoResolver is null)
            {
                options = new JsonSerializerOptions(options) { TypeInfoResolver = new DefaultJsonTypeInfoResolver() };
            }

            options.MakeReadOnly();
            return _reflectionOptions = options;
        }
    }

    private static T Wait<T>(ValueTask<T> pending)
        => pending.IsCompletedSuccessfully ? pending.Result : pending.AsTask().GetAwaiter().GetResult();
}
