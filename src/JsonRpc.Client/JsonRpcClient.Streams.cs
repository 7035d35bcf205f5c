using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Client.Internal;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Client;

/// <summary>
/// Streams and progress, wire-compatible with StreamJsonRpc (and LSP and MCP progress): async enumerable results
/// pulled with <c>$/enumerator/next</c> and released with <c>$/enumerator/abort</c>, and progress tokens whose reports
/// arrive as <c>$/progress</c> or <c>notifications/progress</c>.
/// </summary>
public sealed partial class JsonRpcClient
{
    private readonly ConcurrentDictionary<long, JsonRpcProgressToken> _progress = new();
    private long _nextProgressToken;

    // How many _progress holds: read on every incoming message (see _generatorCount).
    private int _progressCount;

    /// <summary>
    /// Calls <paramref name="method"/>, which returns an async enumerable the StreamJsonRpc way (<c>{"token": …,
    /// "values": […]}</c>), and streams its values: those that came with the answer first, then each batch the
    /// generator gives to <c>$/enumerator/next</c>, one pull at a time, only as the enumeration asks for more (so a
    /// slow consumer slows the generator and nothing piles up). Ending the enumeration early (break, dispose, an
    /// exception) sends <c>$/enumerator/abort</c>, so that the generator disposes its enumerator.
    /// </summary>
    /// <param name="method">The method name.</param>
    /// <param name="params">A JSON object (named) or array (positional), or absent.</param>
    /// <param name="itemType">Metadata of the values' type.</param>
    /// <param name="cancellationToken">Cancels the call or the pull in progress (sending <c>$/cancelRequest</c>), then aborts the stream.</param>
    /// <returns>The values, in order; enumerable once.</returns>
    /// <exception cref="JsonRpcRemoteException">The call or a pull was answered with an error (the stream is then over).</exception>
    /// <exception cref="InvalidDataException">The answer is not an async enumerable, or a batch is empty without being the last.</exception>
    public IAsyncEnumerable<T> StreamAsync<T>(string method, RawJson @params, JsonTypeInfo<T> itemType, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(method);
        ArgumentNullException.ThrowIfNull(itemType);
        return StreamCoreAsync(method, new RawParams(@params), itemType, cancellationToken);
    }

    /// <summary>
    /// <see cref="StreamAsync{T}(string, RawJson, JsonTypeInfo{T}, CancellationToken)"/>, serializing with
    /// <see cref="JsonRpcClientOptions.SerializerOptions"/>.
    /// </summary>
    /// <inheritdoc cref="StreamAsync{T}(string, RawJson, JsonTypeInfo{T}, CancellationToken)"/>
    /// <param name="method">The method name.</param>
    /// <param name="params">Positional params as an array or list, named params as an object; null sends none.</param>
    /// <param name="cancellationToken">Cancels the call or the pull in progress, then aborts the stream.</param>
    [RequiresUnreferencedCode(ReflectionMessage)]
    [RequiresDynamicCode(DynamicCodeMessage)]
    public IAsyncEnumerable<T> StreamAsync<T>(string method, object? @params = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(method);
        return StreamCoreAsync(method, new ObjectParams(@params, ReflectionOptions), (JsonTypeInfo<T>)ReflectionOptions.GetTypeInfo(typeof(T)), cancellationToken);
    }

    /// <summary>
    /// A progress token whose reports reach <paramref name="progress"/>: the value of <c>$/progress</c>
    /// (<c>[token, value]</c> from StreamJsonRpc, <c>{"token": …, "value": …}</c> from LSP) or the params of
    /// <c>notifications/progress</c> (MCP), deserialized as <typeparamref name="T"/>.
    /// </summary>
    /// <param name="progress">Receives the reports, on the connection's read loop: keep it quick.</param>
    /// <param name="valueType">Metadata of the reports' type.</param>
    /// <returns>The token; dispose it once the call it was given to has ended.</returns>
    public JsonRpcProgressToken CreateProgress<T>(IProgress<T> progress, JsonTypeInfo<T> valueType)
    {
        ArgumentNullException.ThrowIfNull(progress);
        ArgumentNullException.ThrowIfNull(valueType);
        var token = new JsonRpcProgressToken(this, Interlocked.Increment(ref _nextProgressToken), value =>
        {
            if (JsonSerializer.Deserialize(value.Span, valueType) is { } report)
            {
                progress.Report(report);
            }
        });
        _progress[token.Token] = token;
        Interlocked.Increment(ref _progressCount);
        return token;
    }

    /// <inheritdoc cref="CreateProgress{T}(IProgress{T}, JsonTypeInfo{T})"/>
    /// <param name="progress">Receives the reports, on the connection's read loop: keep it quick.</param>
    [RequiresUnreferencedCode(ReflectionMessage)]
    [RequiresDynamicCode(DynamicCodeMessage)]
    public JsonRpcProgressToken CreateProgress<T>(IProgress<T> progress)
        => CreateProgress(progress, (JsonTypeInfo<T>)ReflectionOptions.GetTypeInfo(typeof(T)));

    internal void ForgetProgress(long token)
    {
        if (_progress.TryRemove(token, out _))
        {
            Interlocked.Decrement(ref _progressCount);
        }
    }

    /// <summary>
    /// An <see cref="IProgress{T}"/> for a method this client serves: each report goes to the peer as
    /// <c>$/progress</c> for <paramref name="token"/>, the one the caller put in the call's params (a StreamJsonRpc
    /// <c>IProgress&lt;T&gt;</c> argument, LSP's <c>workDoneToken</c> or <c>partialResultToken</c>), in order and
    /// before the call's answer. A report made while the peer is not reading what it is sent is dropped, not held.
    /// </summary>
    /// <param name="token">The caller's token, as its JSON.</param>
    /// <param name="valueType">Metadata of the reports' type.</param>
    /// <param name="named">
    /// <c>{"token": …, "value": …}</c> (LSP) rather than <c>[token, value]</c> (StreamJsonRpc, which reads both).
    /// </param>
    /// <returns>The reporter; use it while the call runs.</returns>
    public IProgress<T> CreateProgressReporter<T>(RawJson token, JsonTypeInfo<T> valueType, bool named)
    {
        ArgumentNullException.ThrowIfNull(valueType);
        if (token.IsEmpty)
        {
            throw new ArgumentException("A progress token is needed.", nameof(token));
        }

        return new ProgressReporter<T>(this, token.Span.ToArray(), valueType, named);
    }

    /// <summary>An <see cref="IProgress{T}"/> for a StreamJsonRpc caller's <c>IProgress&lt;T&gt;</c> argument, which arrives as an integer token.</summary>
    /// <inheritdoc cref="CreateProgressReporter{T}(RawJson, JsonTypeInfo{T}, bool)"/>
    public IProgress<T> CreateProgressReporter<T>(long token, JsonTypeInfo<T> valueType)
        => CreateProgressReporter(RawJson.FromUtf8(System.Text.Encoding.UTF8.GetBytes(token.ToString(System.Globalization.CultureInfo.InvariantCulture))), valueType, named: false);

    /// <summary>The connection to report progress on: none while disconnected or while the peer is not reading.</summary>
    internal ClientConnection? ConnectionForProgress() => CurrentConnection() is { IsBackedUp: false } connection ? connection : null;

    internal void SendProgress(ClientConnection connection, MessageBuffer buffer)
        => _ = ReturnWhenWrittenAsync(connection.WriteAsync(buffer.WrittenMemory, CancellationToken.None), buffer);

    /// <summary>A progress notification for one of this client's tokens: reported at once, on the read loop; true when it was one.</summary>
    private bool TryReportProgress(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info)
    {
        if (info.Kind != JsonRpcMessageKind.Notification || Volatile.Read(ref _progressCount) == 0 || !info.HasParams)
        {
            return false;
        }

        var method = message[info.Method];
        var mcp = method.SequenceEqual("notifications/progress"u8);
        if (!mcp && !method.SequenceEqual("$/progress"u8))
        {
            return false;
        }

        if (!ProgressReader.TryRead(message[info.Params], mcp, out var token, out var value) || !_progress.TryGetValue(token, out var target))
        {
            return true; // not ours, or not readable: nobody else wants it either
        }

        try
        {
            target.Report(value.ToArray());
        }
        catch (Exception ex) when (ex is JsonException or NotSupportedException)
        {
            Log.ProgressUnreadable(_logger, token, ex);
        }

        return true;
    }

    private async IAsyncEnumerable<T> StreamCoreAsync<TParams, T>(string method, TParams @params, JsonTypeInfo<T> itemType,
        [EnumeratorCancellation] CancellationToken cancellationToken)
        where TParams : struct, IParamsSource
    {
        var first = await InvokeCoreAsync<TParams, RawJson, RawResult>(null, method, @params, default, cancellationToken).ConfigureAwait(false);
        var page = StreamPage<T>.Read(first.Span, itemType, initial: true);
        var token = page.Token;
        var finished = token is null;
        try
        {
            while (true)
            {
                foreach (var value in page.Values)
                {
                    yield return value;
                }

                if (finished)
                {
                    yield break;
                }

                try
                {
                    var next = await InvokeCoreAsync<RawParams, RawJson, RawResult>(
                        null, "$/enumerator/next", new RawParams(token!.Value), default, cancellationToken).ConfigureAwait(false);
                    page = StreamPage<T>.Read(next.Span, itemType, initial: false);
                }
                catch (JsonRpcRemoteException)
                {
                    finished = true; // the generator gave up on it: nothing to abort
                    throw;
                }

                finished = page.Finished;
                if (!finished && page.Values.Count == 0)
                {
                    throw new InvalidDataException($"The generator of '{method}' sent an empty batch of values without saying it had finished.");
                }
            }
        }
        finally
        {
            if (!finished)
            {
                await AbortStreamAsync(token!.Value).ConfigureAwait(false);
            }
        }
    }

    /// <summary>Tells the generator to dispose its enumerator; best effort, as a connection that is going ends it anyway.</summary>
    private async ValueTask AbortStreamAsync(RawJson token)
    {
        try
        {
            await NotifyCoreAsync("$/enumerator/abort", new RawParams(token), CancellationToken.None).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is JsonRpcConnectionLostException or ObjectDisposedException or TimeoutException or OperationCanceledException)
        {
            // No connection to tell: the generator's side ends the stream with it.
        }
    }
}
