using System.Buffers;
using System.Text.Json;
using JsonRpc.Protocol;

namespace JsonRpc.Dispatch;

/// <summary>One registered method: binds params, calls the handler, writes the answer.</summary>
internal abstract class DispatchMethod(string name)
{
    public string Name { get; } = name;

    /// <summary>What it takes and returns, for its OpenRPC description (<c>rpc.discover</c>).</summary>
    public MethodShape Shape { get; init; } = MethodShape.Raw;

    /// <summary>The OpenRPC summary and description its owner gave it (<see cref="JsonRpcDispatcher.Describe"/>).</summary>
    public (string? Summary, string? Description) Texts { get; set; }

    /// <summary>
    /// Runs the method. For a request (<paramref name="id"/> not None) writes the whole response or error message
    /// into <paramref name="output"/>; for a notification writes nothing. Never throws for handler or binding failures.
    /// </summary>
    /// <remarks><paramref name="scope"/>: the caller's connection, when the host dispatched with one.</remarks>
    public abstract ValueTask InvokeAsync(RequestId id, ReadOnlyMemory<byte> parameters, IBufferWriter<byte> output, JsonRpcDispatcherOptions options, CancellationToken cancellationToken, JsonRpcCancellationScope? scope);

    /// <summary>Answers a call with the error its handler (or its sequence) ended in; a notification gets nothing.</summary>
    internal static void WriteFailure(RequestId id, Exception exception, IBufferWriter<byte> output, JsonRpcDispatcherOptions options)
    {
        JsonRpcDispatcher.TraceError(
            exception switch
            {
                JsonRpcMethodException method => method.Code,
                OperationCanceledException => JsonRpcDispatcher.RequestCancelled,
                _ => JsonRpcErrorCodes.InternalError,
            },
            exception.Message);
        if (id.IsNone)
        {
            return; // a notification has no one to tell
        }

        switch (exception)
        {
            case JsonRpcMethodException method:
                DispatchWriter.WriteError(output, id, method.Code, method.Message, method.ErrorData);
                break;
            case OperationCanceledException:
                DispatchWriter.WriteError(output, id, JsonRpcDispatcher.RequestCancelled, "Request cancelled", default);
                break;
            default:
                DispatchWriter.WriteError(
                    output,
                    id,
                    JsonRpcErrorCodes.InternalError,
                    options.IncludeExceptionMessages ? exception.Message : "Internal error",
                    default);
                break;
        }
    }
}

/// <summary>
/// A method whose params bind to <typeparamref name="TArgs"/> and whose handler returns <typeparamref name="TResult"/>:
/// given the call's token, or (<see cref="WithContext"/>) the whole <see cref="JsonRpcCallContext"/>.
/// </summary>
internal sealed class DispatchMethod<TArgs, TResult>(
    string name,
    ParamsBinder<TArgs> binder,
    Func<TArgs, CancellationToken, ValueTask<TResult>>? handler,
    ResultWriter<TResult> result) : DispatchMethod(name)
{
    /// <summary>The handler, when it takes the call's context rather than its token only.</summary>
    public Func<TArgs, JsonRpcCallContext, ValueTask<TResult>>? WithContext { get; init; }

    public override ValueTask InvokeAsync(RequestId id, ReadOnlyMemory<byte> parameters, IBufferWriter<byte> output, JsonRpcDispatcherOptions options, CancellationToken cancellationToken, JsonRpcCancellationScope? scope)
    {
        TArgs args;
        try
        {
            args = binder.Bind(parameters);
        }
        catch (Exception ex) when (ex is JsonException or ParamsBindingException or NotSupportedException or InvalidOperationException or ArgumentException)
        {
            JsonRpcDispatcher.TraceError(JsonRpcErrorCodes.InvalidParams, "Invalid params");
            if (!id.IsNone)
            {
                DispatchWriter.WriteError(output, id, JsonRpcErrorCodes.InvalidParams, "Invalid params", DispatchWriter.Detail(ex.Message));
            }

            return default;
        }

        ValueTask<TResult> pending;
        try
        {
            pending = handler is not null
                ? handler(args, cancellationToken)
                : WithContext!(args, new JsonRpcCallContext(cancellationToken, scope, parameters));
        }
        catch (Exception ex)
        {
            WriteFailure(id, ex, output, options);
            return default;
        }

        if (pending.IsCompletedSuccessfully)
        {
            WriteResult(id, pending.Result, output);
            return default;
        }

        return AwaitedAsync(pending, id, output, options);
    }

    private async ValueTask AwaitedAsync(ValueTask<TResult> pending, RequestId id, IBufferWriter<byte> output, JsonRpcDispatcherOptions options)
    {
        TResult value;
        try
        {
            value = await pending.ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            WriteFailure(id, ex, output, options);
            return;
        }

        WriteResult(id, value, output);
    }

    private void WriteResult(RequestId id, TResult value, IBufferWriter<byte> output)
    {
        if (!id.IsNone)
        {
            DispatchWriter.WriteResult(output, id, value, result);
        }
    }
}
