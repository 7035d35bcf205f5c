using System.Buffers;
using JsonRpc.Dispatch;
using JsonRpc.Protocol;
using JsonRpc.Serialization;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Client.Internal;

/// <summary>
/// A request or notification addressed to a method this client serves, run on the thread pool so that a slow (or
/// blocking) handler never holds up the read loop. Owns a pooled copy of the message for as long as the handler runs.
/// </summary>
internal sealed class IncomingCall : IThreadPoolWorkItem
{
    private readonly JsonRpcDispatcher _dispatcher;
    private readonly ClientConnection _connection;
    private readonly ILogger _logger;
    private readonly byte[] _message;
    private readonly int _length;
    private readonly JsonRpcMessageInfo _info;
    private readonly RequestId _id;
    private readonly CancellationToken _token;

    /// <remarks>
    /// The caller has counted the call with <see cref="ClientConnection.TryBeginIncomingCall"/> and tracked it with
    /// <see cref="ClientConnection.Cancellation"/> (which gave <paramref name="token"/>); both end here.
    /// </remarks>
    public IncomingCall(
        JsonRpcDispatcher dispatcher, ClientConnection connection, ILogger logger, ReadOnlySpan<byte> message, in JsonRpcMessageInfo info,
        RequestId id, CancellationToken token)
    {
        _id = id;
        _token = token;
        _dispatcher = dispatcher;
        _connection = connection;
        _logger = logger;
        _length = message.Length;
        _message = ArrayPool<byte>.Shared.Rent(message.Length);
        message.CopyTo(_message);
        _info = info;
    }

    public void Execute() => _ = RunAsync();

    private async Task RunAsync()
    {
        var output = MessageBuffer.Rent();
        try
        {
            var answered = await _dispatcher.DispatchAsync(_message.AsMemory(0, _length), _info, output, _token).ConfigureAwait(false);
            if (answered && !_connection.IsClosed)
            {
                await _connection.WriteAsync(output.WrittenMemory, CancellationToken.None).ConfigureAwait(false);
            }
        }
        catch (Exception ex) when (ex is JsonRpcConnectionLostException || _connection.IsClosed)
        {
            // The connection closed while the handler ran: there is nobody to answer.
        }
        catch (Exception ex)
        {
            Log.ProcessingFailed(_logger, _connection.EndPoint, ex);
        }
        finally
        {
            MessageBuffer.Return(output);
            ArrayPool<byte>.Shared.Return(_message);
            _connection.Cancellation.End(_id, _token);
            _connection.EndIncomingCall();
        }
    }
}
