using System.Buffers;
using JsonRpc.Buffers;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Dispatch;

/// <summary>
/// Maps method names to typed handlers and answers calls: bytes in, parse, bind params, call, serialize, bytes out.
/// Serves the router's own methods and the methods a client serves. Thread-safe; methods may be added and removed
/// while calls are dispatched.
/// </summary>
/// <remarks>
/// A call whose handler completes synchronously is answered without allocating beyond what binding and the handler
/// allocate. Handlers get the call's <see cref="CancellationToken"/>; throw <see cref="JsonRpcMethodException"/> to
/// answer with a specific error. Params that do not bind answer Invalid params (-32602); an unknown method answers
/// Method not found (-32601); other exceptions answer Internal error (-32603).
/// </remarks>
public sealed partial class JsonRpcDispatcher
{
    /// <summary>The code answered when a handler ends in <see cref="OperationCanceledException"/> (-32800, as LSP uses).</summary>
    /// <remarks>Outside the spec's reserved range on purpose: it is an application outcome, not a protocol fault.</remarks>
    public const int RequestCancelled = JsonRpcErrorCodes.RequestCancelled;

    private const int MaxStackName = 256;
    private const string CancelRequestIsNotification = "$/cancelRequest is a notification: send it without an id.";

    private readonly Lock _gate = new();
    private volatile MethodTable _methods = MethodTable.Empty;

    /// <summary>Creates a dispatcher.</summary>
    public JsonRpcDispatcher(JsonRpcDispatcherOptions? options = null) => Options = options ?? new JsonRpcDispatcherOptions();

    /// <summary>The options in force.</summary>
    public JsonRpcDispatcherOptions Options { get; }

    /// <summary>The names of the registered methods.</summary>
    public IReadOnlyCollection<string> Methods => _methods.Names;

    /// <summary>Whether a method of that name is registered.</summary>
    public bool Contains(string method)
    {
        ArgumentNullException.ThrowIfNull(method);
        return _methods.Find(method) is not null;
    }

    /// <summary>Whether a method of that UTF-8 name is registered. Allocates nothing.</summary>
    public bool Contains(ReadOnlySpan<byte> utf8Method) => _methods.Find(utf8Method) is not null;

    /// <summary>Removes a method; returns false when there was none of that name.</summary>
    public bool Remove(string method)
    {
        ArgumentNullException.ThrowIfNull(method);
        lock (_gate)
        {
            if (_methods.Find(method) is not { } registered)
            {
                return false;
            }

            _methods = _methods.Without(registered);
            return true;
        }
    }

    /// <summary>
    /// Answers one message or batch. Writes the response (or batch response) into <paramref name="output"/> and returns
    /// true; returns false when there is nothing to answer (notifications, an all-notification batch, and responses,
    /// which are not the dispatcher's to handle). Input that is not JSON or not a valid message is answered with the
    /// spec's error. The returned task completes once every handler involved has completed.
    /// </summary>
    /// <remarks><paramref name="message"/> must stay unchanged until the returned task completes.</remarks>
    public ValueTask<bool> DispatchAsync(ReadOnlyMemory<byte> message, IBufferWriter<byte> output, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(output);
        if (!TryReadWhole(message, output, out var info, out var elements))
        {
            return new ValueTask<bool>(true);
        }

        return info.Kind == JsonRpcMessageKind.Batch
            ? DispatchBatchAsync(message, elements, output, cancellationToken)
            : DispatchAsync(message, info, output, cancellationToken);
    }

    /// <summary>
    /// Reads a whole message, a batch's elements in the same pass that checks the batch (kept in
    /// <paramref name="elements"/> for a batch only). False when it was invalid and answered with the spec's error.
    /// </summary>
    private bool TryReadWhole(ReadOnlyMemory<byte> message, IBufferWriter<byte> output, out JsonRpcMessageInfo info, out JsonRpcMessageReader.BatchElements elements)
    {
        elements = JsonRpcMessageReader.BatchElements.Collecting();
        if (!JsonRpcMessageReader.TryRead(message.Span, Options.MaxDepth, out info, out var error, ref elements))
        {
            elements.Dispose();
            DispatchWriter.WriteError(output, info.GetId(message.Span), error);
            return false;
        }

        if (info.Kind != JsonRpcMessageKind.Batch)
        {
            elements.Dispose();
        }

        return true;
    }

    /// <summary>
    /// Answers one message that <see cref="JsonRpcMessageReader.TryRead(ReadOnlySpan{byte}, out JsonRpcMessageInfo, out JsonRpcReadError)"/>
    /// already accepted (not a batch). Returns true when an answer was written.
    /// </summary>
    public ValueTask<bool> DispatchAsync(ReadOnlyMemory<byte> message, in JsonRpcMessageInfo info, IBufferWriter<byte> output, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(output);
        return DispatchOneAsync(message, in info, output, cancellationToken, scope: null);
    }

    /// <summary>
    /// Answers one message the reader already accepted (not a batch) for the peer of <paramref name="scope"/>, with the
    /// token the host got from <see cref="JsonRpcCancellationScope.Begin"/> for it: for hosts that track the peer's
    /// calls themselves. Methods that stream or report progress use the scope's state and its
    /// <see cref="JsonRpcCancellationScope.Peer"/>; the peer's <c>$/enumerator/next</c> and <c>$/enumerator/abort</c>
    /// are answered here. Returns true when an answer was written.
    /// </summary>
    public ValueTask<bool> DispatchAsync(ReadOnlyMemory<byte> message, in JsonRpcMessageInfo info, IBufferWriter<byte> output, CancellationToken cancellationToken, JsonRpcCancellationScope scope)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(scope);
        return DispatchOneAsync(message, in info, output, cancellationToken, scope);
    }

    private ValueTask<bool> DispatchOneAsync(ReadOnlyMemory<byte> message, in JsonRpcMessageInfo info, IBufferWriter<byte> output, CancellationToken cancellationToken, JsonRpcCancellationScope? scope)
    {
        if (info.Kind is not (JsonRpcMessageKind.Request or JsonRpcMessageKind.Notification))
        {
            return new ValueTask<bool>(false);
        }

        return ActivitySource.HasListeners()
            ? DispatchTracedAsync(message, info, output, cancellationToken, scope)
            : DispatchCoreAsync(message, in info, output, cancellationToken, scope);
    }

    private ValueTask<bool> DispatchCoreAsync(ReadOnlyMemory<byte> message, in JsonRpcMessageInfo info, IBufferWriter<byte> output, CancellationToken cancellationToken, JsonRpcCancellationScope? scope)
    {
        var isRequest = info.Kind == JsonRpcMessageKind.Request;
        var span = message.Span;
        var method = FindMethod(span, in info);
        var id = isRequest ? info.GetId(span) : default;
        if (method is null)
        {
            if (isRequest && JsonRpcProtocolMethods.IsCancelRequest(span, in info))
            {
                return new ValueTask<bool>(HandleCancelRequest(span, in info, output, scope: null));
            }

            if (scope is not null && TryServeEnumerator(message, in info, output, scope) is { } served)
            {
                return served;
            }

            if (isRequest)
            {
                TraceError(JsonRpcErrorCodes.MethodNotFound, "Method not found");
                DispatchWriter.WriteError(output, id, JsonRpcErrorCodes.MethodNotFound, "Method not found", default);
            }

            return new ValueTask<bool>(isRequest);
        }

        var parameters = info.HasParams ? message[info.Params] : default;
        var pending = method.InvokeAsync(id, parameters, output, Options, cancellationToken, scope);
        if (pending.IsCompletedSuccessfully)
        {
            return new ValueTask<bool>(isRequest);
        }

        return AwaitedAsync(pending, isRequest);

        static async ValueTask<bool> AwaitedAsync(ValueTask pending, bool answered)
        {
            await pending.ConfigureAwait(false);
            return answered;
        }
    }

    /// <summary>
    /// Answers one message or batch as <see cref="DispatchAsync(ReadOnlyMemory{byte}, IBufferWriter{byte}, CancellationToken)"/>
    /// does, for a peer whose running calls <paramref name="scope"/> tracks: each handler gets a token that the peer's
    /// <c>$/cancelRequest</c> for its id cancels (a handler that then ends in <see cref="OperationCanceledException"/>
    /// answers <see cref="JsonRpcErrorCodes.RequestCancelled"/>), and a <c>$/cancelRequest</c> notification is handled
    /// here. <c>$/cancelRequest</c> sent as a request (with an id) is answered Invalid Request (-32600).
    /// </summary>
    /// <remarks>
    /// Dispatch the peer's messages concurrently (one task per message) for its cancellations to reach calls that run:
    /// the returned task completes only when the handlers involved have.
    /// </remarks>
    public ValueTask<bool> DispatchAsync(ReadOnlyMemory<byte> message, IBufferWriter<byte> output, JsonRpcCancellationScope scope)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(scope);
        if (!TryReadWhole(message, output, out var info, out var elements))
        {
            return new ValueTask<bool>(true);
        }

        if (info.Kind == JsonRpcMessageKind.Batch)
        {
            return DispatchBatchAsync(message, elements, output, default, scope);
        }

        if (JsonRpcProtocolMethods.IsCancelRequest(message.Span, in info))
        {
            return new ValueTask<bool>(HandleCancelRequest(message.Span, in info, output, scope));
        }

        if (info.Kind != JsonRpcMessageKind.Request)
        {
            return DispatchOneAsync(message, info, output, scope.Begin(RequestId.None), scope);
        }

        var id = info.GetId(message.Span);
        var token = scope.Begin(id);
        var pending = DispatchOneAsync(message, info, output, token, scope);
        if (pending.IsCompletedSuccessfully)
        {
            scope.End(id, token);
            return pending;
        }

        return EndWhenDoneAsync(pending, scope, id, token);

        static async ValueTask<bool> EndWhenDoneAsync(ValueTask<bool> pending, JsonRpcCancellationScope scope, RequestId id, CancellationToken token)
        {
            try
            {
                return await pending.ConfigureAwait(false);
            }
            finally
            {
                scope.End(id, token);
            }
        }
    }

    /// <summary>A notification cancels the sender's call of that id; a request is answered -32600. Returns whether it answered.</summary>
    private static bool HandleCancelRequest(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info, IBufferWriter<byte> output, JsonRpcCancellationScope? scope)
    {
        if (info.Kind == JsonRpcMessageKind.Request)
        {
            DispatchWriter.WriteError(output, info.GetId(message), JsonRpcErrorCodes.InvalidRequest, "Invalid Request",
                DispatchWriter.Detail(CancelRequestIsNotification));
            return true;
        }

        scope?.Cancel(info.HasParams ? message[info.Params] : default);
        return false;
    }

    /// <summary>
    /// Answers each element of a batch in order, into one pooled buffer that reaches <paramref name="output"/> only once
    /// every element has been answered. An element is answered when it is invalid or a request, which is known from
    /// reading it, so each answer is written in place after its separator. With a <paramref name="scope"/>, every call
    /// in the batch is tracked from the start, so that a cancellation reaches a call still waiting for its turn (it then
    /// starts with its token cancelled); without one, every handler gets <paramref name="cancellationToken"/>.
    /// </summary>
    private async ValueTask<bool> DispatchBatchAsync(
        ReadOnlyMemory<byte> batch, JsonRpcMessageReader.BatchElements elements, IBufferWriter<byte> output,
        CancellationToken cancellationToken, JsonRpcCancellationScope? scope = null)
    {
        using var answers = new PooledBufferWriter();
        var ids = scope is null ? null : ArrayPool<RequestId>.Shared.Rent(elements.Count);
        var tokens = scope is null ? null : ArrayPool<CancellationToken>.Shared.Rent(elements.Count);
        if (ids is not null)
        {
            Array.Clear(ids, 0, elements.Count); // default: no id, nothing begun
        }

        try
        {
            for (var i = 0; scope is not null && i < elements.Count; i++)
            {
                var element = elements[i];
                if (element.Invalid is null && element.Info.Kind == JsonRpcMessageKind.Request && !JsonRpcProtocolMethods.IsCancelRequest(batch.Span, element.Info))
                {
                    ids![i] = element.Info.GetId(batch.Span);
                    tokens![i] = scope.Begin(ids[i]);
                }
            }

            for (var i = 0; i < elements.Count; i++)
            {
                var element = elements[i];
                if (element.Invalid is not null || element.Info.Kind == JsonRpcMessageKind.Request)
                {
                    answers.Write(answers.WrittenCount == 0 ? (byte)'[' : (byte)',');
                }

                if (element.Invalid is not null)
                {
                    DispatchWriter.WriteError(answers, element.Info.GetId(batch.Span), new JsonRpcReadError(JsonRpcErrorCodes.InvalidRequest, element.Invalid));
                }
                else if (scope is not null && JsonRpcProtocolMethods.IsCancelRequest(batch.Span, element.Info))
                {
                    HandleCancelRequest(batch.Span, element.Info, answers, scope);
                }
                else
                {
                    // Notifications write no answer; responses are not the dispatcher's to handle.
                    var token = tokens is null ? cancellationToken : element.Info.Kind == JsonRpcMessageKind.Request ? tokens[i] : scope!.Begin(RequestId.None);
                    await DispatchOneAsync(batch, element.Info, answers, token, scope).ConfigureAwait(false);
                    if (ids is not null)
                    {
                        scope!.End(ids[i], token);
                        ids[i] = RequestId.None;
                    }
                }
            }
        }
        finally
        {
            if (ids is not null)
            {
                for (var i = 0; i < elements.Count; i++)
                {
                    scope!.End(ids[i], tokens![i]);
                }

                // Cleared: a rented array must not keep ids (strings) or tokens (their sources) alive.
                ArrayPool<RequestId>.Shared.Return(ids, clearArray: true);
                ArrayPool<CancellationToken>.Shared.Return(tokens!, clearArray: true);
            }

            elements.Dispose();
        }

        if (answers.WrittenCount == 0)
        {
            return false;
        }

        answers.Write((byte)']');
        output.Write(answers.WrittenSpan);
        return true;
    }

    private DispatchMethod? FindMethod(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info)
    {
        var raw = message[info.Method];
        if (!info.MethodIsEscaped)
        {
            return _methods.Find(raw);
        }

        var scratch = raw.Length <= MaxStackName ? stackalloc byte[MaxStackName] : new byte[raw.Length];
        return _methods.Find(info.GetMethod(message, scratch));
    }

    private JsonRpcDispatcher Register(DispatchMethod method)
    {
        lock (_gate)
        {
            if (_methods.Find(method.Name) is not null)
            {
                throw new ArgumentException($"A method named '{method.Name}' is already registered.", nameof(method));
            }

            _methods = _methods.With(method);
        }

        return this;
    }
}
