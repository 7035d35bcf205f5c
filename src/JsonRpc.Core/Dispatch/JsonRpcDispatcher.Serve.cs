using JsonRpc.Dispatch.Streams;
using JsonRpc.Framing;

namespace JsonRpc.Dispatch;

// Serving one connection over a stream: the dispatcher as a whole JSON-RPC server for one peer.
public sealed partial class JsonRpcDispatcher
{
    /// <summary>
    /// Serves the peer at the other end of <paramref name="stream"/> (a socket's <see cref="System.Net.Sockets.NetworkStream"/>,
    /// a pipe, a child process's standard streams joined in one duplex stream) until it closes the stream, the stream
    /// fails, or <paramref name="cancellationToken"/> is cancelled. Messages are read with <paramref name="framer"/>
    /// (newline-delimited by default) and dispatched concurrently, in one <see cref="JsonRpcCancellationScope"/> with a
    /// <see cref="JsonRpcPeerChannel"/>: the peer's <c>$/cancelRequest</c> cancels its calls, it can pull the async
    /// enumerables methods return, and progress reports reach it before the answers of their calls. While the
    /// connection is served, the events of contract targets (<see cref="AddTarget{TContract}(TContract)"/>) are sent to
    /// it as notifications. When the connection ends, running calls are cancelled and open enumerables disposed.
    /// </summary>
    /// <remarks>
    /// Bounded: at most <see cref="JsonRpcDispatcherOptions.MaxConcurrentCalls"/> messages are dispatched at once; while
    /// that many run, reading goes on (a <c>$/cancelRequest</c> or <c>$/enumerator/abort</c> is still served), a further
    /// call is answered <see cref="Overloaded"/> and a further notification dropped. A progress notification that would
    /// take the bytes waiting to be written past <see cref="JsonRpcDispatcherOptions.MaxOutboundBytes"/> is dropped. Input the framer refuses
    /// (a message larger than its <see cref="IJsonRpcFramer.MaxMessageSize"/>, broken framing) is answered with a
    /// Parse error and ends the connection. The stream is not disposed.
    /// </remarks>
    /// <returns>A task that completes once the connection has ended and every call has been answered or dropped.</returns>
    public async Task ServeAsync(Stream stream, IJsonRpcFramer? framer = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(stream);
        var connection = new StreamConnection(this, stream, framer ?? new NewlineDelimitedFramer(), cancellationToken);
        await connection.RunAsync().ConfigureAwait(false);
    }
}
