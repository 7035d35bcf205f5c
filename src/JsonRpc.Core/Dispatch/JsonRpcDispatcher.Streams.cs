using System.Buffers;
using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Buffers;
using JsonRpc.Dispatch.Streams;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Dispatch;

// Methods that take the call's context, and async enumerables served the StreamJsonRpc way.
public sealed partial class JsonRpcDispatcher
{
    /// <summary>The code answered for an enumerator token the connection does not have (-32001, StreamJsonRpc's "no marshaled object found").</summary>
    public const int UnknownEnumerator = -32001;

    /// <summary>
    /// The code answered when a connection is at a bound (-32018, as the router's "Overloaded"): a call that would open
    /// more async enumerables than <see cref="JsonRpcDispatcherOptions.MaxOpenEnumerators"/> allows, or, in
    /// <see cref="ServeAsync"/>, a call beyond <see cref="JsonRpcDispatcherOptions.MaxConcurrentCalls"/>.
    /// </summary>
    public const int Overloaded = -32018;

    private const string EnumeratorNext = "$/enumerator/next";
    private const string EnumeratorAbort = "$/enumerator/abort";

    /// <summary>
    /// Adds a method whose whole params value binds to <typeparamref name="TParams"/> and whose handler gets the call's
    /// <see cref="JsonRpcCallContext"/>: its token, its raw params, and progress reporters that reach the caller.
    /// </summary>
    /// <exception cref="ArgumentException">A method of that name is already registered.</exception>
    public JsonRpcDispatcher AddWithContext<TParams, TResult>(string method, Func<TParams, JsonRpcCallContext, ValueTask<TResult>> handler, JsonTypeInfo<TParams> parameters, JsonTypeInfo<TResult> result)
    {
        ArgumentNullException.ThrowIfNull(handler);
        ArgumentNullException.ThrowIfNull(parameters);
        return Register(new DispatchMethod<TParams, TResult>(Name(method), new WholeParamsBinder<TParams>(parameters), null, Result(result))
        {
            WithContext = handler,
            Shape = MethodShape.Whole(parameters, result),
        });
    }

    /// <summary>Adds a method without a result (answered <c>null</c>) whose handler gets the call's <see cref="JsonRpcCallContext"/>.</summary>
    /// <inheritdoc cref="AddWithContext{TParams, TResult}"/>
    public JsonRpcDispatcher AddNotificationWithContext<TParams>(string method, Func<TParams, JsonRpcCallContext, ValueTask> handler, JsonTypeInfo<TParams> parameters)
    {
        ArgumentNullException.ThrowIfNull(handler);
        ArgumentNullException.ThrowIfNull(parameters);
        return Register(new DispatchMethod<TParams, bool>(Name(method), new WholeParamsBinder<TParams>(parameters), null, NullResultWriter<bool>.Instance)
        {
            WithContext = (p, call) => AsBool(handler(p, call)),
            Shape = MethodShape.Whole(parameters, null),
        });
    }

    /// <summary>
    /// Adds a method that returns an async enumerable, served as StreamJsonRpc serves one: the answer is
    /// <c>{"token": n, "values": […]}</c> (the first <see cref="JsonRpcDispatcherOptions.EnumeratorPrefetch"/> values;
    /// <c>"values"</c> is left out when there are none, <c>"token"</c> when the sequence already ended), and the caller
    /// pulls the rest with <c>$/enumerator/next</c> (<c>[n]</c> or <c>{"token": n}</c>), answered
    /// <c>{"values": […], "finished": bool}</c>, one pull at a time. <c>$/enumerator/abort</c>, the end of the
    /// sequence, its failure (answered to the pull as an error) and the end of the connection dispose the enumerator,
    /// and cancel the token it was given (an async iterator's <c>[EnumeratorCancellation]</c> parameter).
    /// </summary>
    /// <remarks>
    /// The enumerables live in the connection's <see cref="JsonRpcCancellationScope"/>: a call dispatched without one
    /// is answered Internal error. The scope's host must call <see cref="JsonRpcCancellationScope.CancelAll"/> (or
    /// dispose it) when the connection ends.
    /// </remarks>
    /// <exception cref="ArgumentException">A method of that name is already registered.</exception>
    public JsonRpcDispatcher AddStream<TParams, T>(string method, Func<TParams, JsonRpcCallContext, IAsyncEnumerable<T>> handler, JsonTypeInfo<TParams> parameters, JsonTypeInfo<T> itemType)
    {
        ArgumentNullException.ThrowIfNull(handler);
        ArgumentNullException.ThrowIfNull(parameters);
        ArgumentNullException.ThrowIfNull(itemType);
        return Register(new DispatchMethod<TParams, RawJson>(Name(method), new WholeParamsBinder<TParams>(parameters), null, RawResultWriter.Instance)
        {
            WithContext = (p, call) => OpenStreamAsync(handler(p, call), itemType, call.Scope),
            Shape = MethodShape.Whole(parameters, itemType),
        });
    }

    /// <summary>Registers a sequence with the connection, takes its prefetch, and writes the answer that carries it.</summary>
    private async ValueTask<RawJson> OpenStreamAsync<T>(IAsyncEnumerable<T> sequence, JsonTypeInfo<T> itemType, JsonRpcCancellationScope? scope)
    {
        if (scope is null)
        {
            throw new JsonRpcMethodException(JsonRpcErrorCodes.InternalError, "Internal error", DispatchWriter.Detail(
                "This method returns a stream, which lives in the caller's connection: the host dispatched it without a JsonRpcCancellationScope."));
        }

        var served = new ServedEnumerator<T>(sequence, itemType);
        var enumerators = scope.Enumerators;
        var token = scope.NextEnumeratorToken();
        if (!enumerators.TryAdd(token, served, Options.MaxOpenEnumerators))
        {
            await served.DisposeAsync().ConfigureAwait(false);
            throw new JsonRpcMethodException(Overloaded, "Too many open streams", DispatchWriter.Detail(string.Create(CultureInfo.InvariantCulture,
                $"This connection already has {Options.MaxOpenEnumerators} async enumerables open, the most it may: finish or abort ($/enumerator/abort) one first.")));
        }

        using var answer = new PooledBufferWriter();
        var finished = false;
        answer.Write((byte)'{');
        if (Options.EnumeratorPrefetch > 0)
        {
            served.TryBeginPull();
            using var values = new PooledBufferWriter();
            try
            {
                finished = await served.WriteValuesAsync(values, Options.EnumeratorPrefetch, Options.EnumeratorPrefetch).ConfigureAwait(false);
            }
            catch
            {
                served.EndPull();
                enumerators.Remove(token);
                throw;
            }

            served.EndPull();
            if (!finished)
            {
                WriteToken(answer, token);
                answer.Write((byte)',');
            }

            answer.Write("\"values\":"u8);
            answer.Write(values.WrittenSpan);
        }
        else
        {
            WriteToken(answer, token);
        }

        answer.Write((byte)'}');
        if (finished)
        {
            enumerators.Remove(token);
        }

        return RawJson.FromTrustedUtf8(answer.WrittenSpan.ToArray());

        static void WriteToken(PooledBufferWriter answer, long token)
        {
            answer.Write("\"token\":"u8);
            System.Buffers.Text.Utf8Formatter.TryFormat(token, answer.GetSpan(20), out var written);
            answer.Advance(written);
        }
    }

    /// <summary>
    /// <c>$/enumerator/next</c> or <c>$/enumerator/abort</c> for the connection's enumerables; null when the message is
    /// neither (then it is an unknown method). Otherwise returns whether an answer was (or will be) written.
    /// </summary>
    private ValueTask<bool>? TryServeEnumerator(ReadOnlyMemory<byte> message, in JsonRpcMessageInfo info, IBufferWriter<byte> output, JsonRpcCancellationScope scope)
    {
        var span = message.Span;
        var name = span[info.Method];
        var next = name.SequenceEqual("$/enumerator/next"u8);
        if (!next && !name.SequenceEqual("$/enumerator/abort"u8))
        {
            return null;
        }

        var isRequest = info.Kind == JsonRpcMessageKind.Request;
        var id = isRequest ? info.GetId(span) : RequestId.None;
        if (!TryReadEnumeratorToken(info.HasParams ? span[info.Params] : default, out var token))
        {
            return Refuse(JsonRpcErrorCodes.InvalidParams, "Invalid params", "Expected the enumerator's token: [token] or {\"token\": token}.");
        }

        var enumerators = scope.Enumerators;
        if (!next)
        {
            var known = enumerators.Remove(token);
            if (isRequest)
            {
                if (!known)
                {
                    return Refuse(UnknownEnumerator, "Unknown enumerator token", null);
                }

                DispatchWriter.WriteResult(output, id, RawJson.Null, RawResultWriter.Instance);
            }

            return new ValueTask<bool>(isRequest);
        }

        if (!isRequest)
        {
            return new ValueTask<bool>(false); // a pull needs an answer: as a notification it means nothing
        }

        if (enumerators.Find(token) is not { } served)
        {
            return Refuse(UnknownEnumerator, "Unknown enumerator token",
                "This connection has no async enumerable of that token: it finished, was aborted or failed, or never was.");
        }

        if (!served.TryBeginPull())
        {
            return Refuse(JsonRpcErrorCodes.InvalidRequest, "Invalid Request", "A $/enumerator/next of this enumerable is already running.");
        }

        return new ValueTask<bool>(PullAsync(served, enumerators, token, id, output));

        ValueTask<bool>? Refuse(int code, string text, string? detail)
        {
            TraceError(code, text);
            if (!isRequest)
            {
                return new ValueTask<bool>(false);
            }

            DispatchWriter.WriteError(output, id, code, text, detail is null ? default : DispatchWriter.Detail(detail));
            return new ValueTask<bool>(true);
        }
    }

    private async Task<bool> PullAsync(IServedEnumerator served, EnumeratorTable enumerators, long token, RequestId id, IBufferWriter<byte> output)
    {
        using var values = new PooledBufferWriter();
        bool finished;
        try
        {
            finished = await served.WriteValuesAsync(values, Math.Max(1, Options.EnumeratorMinBatch), Options.EnumeratorMaxBatch).ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            // The sequence failed: the pull gets its error, and the enumerable is over.
            served.EndPull();
            enumerators.Remove(token);
            DispatchMethod.WriteFailure(id, ex, output, Options);
            return true;
        }

        // Free before the answer goes: the caller may send its next pull the moment it has this one.
        served.EndPull();
        if (finished)
        {
            enumerators.Remove(token);
        }

        using var result = new PooledBufferWriter();
        result.Write("{\"values\":"u8);
        result.Write(values.WrittenSpan);
        result.Write(finished ? ",\"finished\":true}"u8 : ",\"finished\":false}"u8);
        DispatchWriter.WriteResult(output, id, RawJson.FromTrustedUtf8(result.WrittenMemory), RawResultWriter.Instance);
        return true;
    }

    /// <summary>The token of <c>$/enumerator/next</c> or <c>$/enumerator/abort</c>: <c>[n]</c> or <c>{"token": n}</c>.</summary>
    private static bool TryReadEnumeratorToken(ReadOnlySpan<byte> @params, out long token)
    {
        token = 0;
        if (@params.IsEmpty)
        {
            return false;
        }

        var reader = new Utf8JsonReader(@params);
        reader.Read();
        switch (reader.TokenType)
        {
            case JsonTokenType.StartArray:
                return reader.Read() && reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out token);
            case JsonTokenType.StartObject:
                while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
                {
                    if (reader.ValueTextEquals("token"u8))
                    {
                        return reader.Read() && reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out token);
                    }

                    reader.Read();
                    reader.Skip();
                }

                return false;
            default:
                return false;
        }
    }
}
