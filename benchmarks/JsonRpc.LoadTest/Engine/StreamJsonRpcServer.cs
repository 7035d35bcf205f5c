using System.Net;
using System.Net.Sockets;
using StreamJsonRpc;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The direct-mode peer: StreamJsonRpc 2.26 serving <c>echo</c> in this process, as its documentation sets a server
/// up: a TCP listener on 127.0.0.1 port 0, and per accepted connection a <see cref="StreamJsonRpc.JsonRpc"/> over a
/// <see cref="NewLineDelimitedMessageHandler"/> (newline framing, as ours) with the <see cref="SystemTextJsonFormatter"/>,
/// and <see cref="StreamJsonRpcEchoTarget"/> as its target object.
/// </summary>
internal sealed class StreamJsonRpcServer : IAsyncDisposable
{
    private readonly TcpListener _listener;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<StreamJsonRpc.JsonRpc> _connections = [];
    private readonly Task _accepting;

    private StreamJsonRpcServer(TcpListener listener)
    {
        _listener = listener;
        EndPoint = (IPEndPoint)listener.LocalEndpoint;
        _accepting = AcceptAsync();
    }

    public IPEndPoint EndPoint { get; }

    public static StreamJsonRpcServer Start()
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start(512);
        return new StreamJsonRpcServer(listener);
    }

    private async Task AcceptAsync()
    {
        await Task.Yield();
        try
        {
            while (true)
            {
                var socket = await _listener.AcceptSocketAsync(_stop.Token).ConfigureAwait(false);
                socket.NoDelay = true;
                var stream = new NetworkStream(socket, ownsSocket: true);
                var rpc = new StreamJsonRpc.JsonRpc(JsonRpc.Peers.StreamJsonRpcNewline.Create(stream));
                rpc.AddLocalRpcTarget(new StreamJsonRpcEchoTarget());
                rpc.StartListening();
                lock (_connections)
                {
                    _connections.Add(rpc);
                }
            }
        }
        catch (OperationCanceledException) when (_stop.IsCancellationRequested)
        {
        }
        catch (SocketException) when (_stop.IsCancellationRequested)
        {
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        _listener.Stop();
        await _accepting.ConfigureAwait(false);
        StreamJsonRpc.JsonRpc[] connections;
        lock (_connections)
        {
            connections = [.. _connections];
        }

        foreach (var rpc in connections)
        {
            rpc.Dispose();
            try
            {
                await rpc.Completion.WaitAsync(TimeSpan.FromSeconds(10)).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is not OutOfMemoryException)
            {
                // A connection that ended with an error ends all the same; the callers have reported what they saw.
            }
        }

        _stop.Dispose();
    }
}
