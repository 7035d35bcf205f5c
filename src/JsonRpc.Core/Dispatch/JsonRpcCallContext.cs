using System.Text.Json.Serialization.Metadata;
using JsonRpc.Dispatch.Streams;
using JsonRpc.Protocol;

namespace JsonRpc.Dispatch;

/// <summary>
/// What a handler registered with a context (<see cref="JsonRpcDispatcher.AddWithContext{TParams, TResult}"/>,
/// <see cref="JsonRpcDispatcher.AddStream{TParams, T}"/>) gets besides its params: the call's token, its raw params,
/// and the way back to the caller for progress reports. Valid while the handler runs.
/// </summary>
public readonly struct JsonRpcCallContext
{
    private readonly JsonRpcCancellationScope? _scope;
    private readonly ReadOnlyMemory<byte> _params;

    internal JsonRpcCallContext(CancellationToken cancellationToken, JsonRpcCancellationScope? scope, ReadOnlyMemory<byte> @params)
    {
        CancellationToken = cancellationToken;
        _scope = scope;
        _params = @params;
    }

    /// <summary>Cancelled when the caller cancels the call (<c>$/cancelRequest</c>) or leaves.</summary>
    public CancellationToken CancellationToken { get; }

    /// <summary>The call's params exactly as sent (<see cref="RawJson.IsEmpty"/> when absent); valid until the handler's task completes.</summary>
    public RawJson Params => RawJson.FromTrustedUtf8(_params);

    /// <summary>The connection's scope: null when the call was dispatched without one (then there is no way back to the caller).</summary>
    public JsonRpcCancellationScope? Scope => _scope;

    /// <summary>
    /// An <see cref="IProgress{T}"/> whose reports reach the caller, in order and before the call's answer, for
    /// <paramref name="token"/> sent <paramref name="style"/>'s way. Null when the connection has no
    /// <see cref="JsonRpcPeerChannel"/>. A report the connection cannot take now (its peer is not reading) is dropped.
    /// </summary>
    /// <param name="token">The caller's token, as its JSON (a number or a string).</param>
    /// <param name="style">How the reports are sent.</param>
    /// <param name="valueType">Metadata of the reports' type.</param>
    public IProgress<T>? CreateProgress<T>(RawJson token, JsonRpcProgressStyle style, JsonTypeInfo<T> valueType)
    {
        ArgumentNullException.ThrowIfNull(valueType);
        return token.IsEmpty || _scope?.Peer is not { } peer ? null : new ProgressSender<T>(peer, token.Span.ToArray(), style, valueType);
    }

    /// <summary>
    /// An <see cref="IProgress{T}"/> for the progress token the call's params carry: an LSP <c>workDoneToken</c> or
    /// <c>partialResultToken</c> (reports as <c>$/progress</c> <c>{token, value}</c>) or an MCP
    /// <c>_meta.progressToken</c> (reports as <c>notifications/progress</c>). Null when there is none, or no way back.
    /// </summary>
    public IProgress<T>? CreateProgress<T>(JsonTypeInfo<T> valueType)
        => ProgressTokens.TryFind(_params.Span, out var token, out var style) ? CreateProgress(token, style, valueType) : null;

    /// <summary>
    /// An <see cref="IProgress{T}"/> for a StreamJsonRpc <see cref="IProgress{T}"/> argument, which arrives as an
    /// integer token (reports as <c>$/progress</c> <c>[token, value]</c>); when there is none (null), for the LSP or
    /// MCP token the params may carry instead (<see cref="CreateProgress{T}(JsonTypeInfo{T})"/>).
    /// </summary>
    public IProgress<T>? CreateProgress<T>(long? token, JsonTypeInfo<T> valueType)
        => token is { } value
            ? CreateProgress(RawJson.FromTrustedUtf8(System.Text.Encoding.UTF8.GetBytes(value.ToString(System.Globalization.CultureInfo.InvariantCulture))), JsonRpcProgressStyle.Positional, valueType)
            : CreateProgress(valueType);
}
