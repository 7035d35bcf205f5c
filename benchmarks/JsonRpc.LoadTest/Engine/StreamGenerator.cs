using System.Net;
using System.Net.Sockets;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The streaming case's generator: serves <c>values(count)</c>, an async enumerable of 0 … count-1, on the connections
/// it accepts (direct) or on its connection to the router, registered as a provider of <c>values</c>; and counts the
/// batches it answers.
/// </summary>
internal abstract class StreamGenerator : IAsyncDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private TcpListener? _listener;
    private Task _accepting = Task.CompletedTask;
    private long _batches;

    /// <summary>Batches answered so far: calls of <c>values</c> and <c>$/enumerator/next</c> pulls.</summary>
    public long Batches => Interlocked.Read(ref _batches);

    /// <summary>Cancelled when the generator stops.</summary>
    protected CancellationToken Stopping => _stop.Token;

    /// <summary>Listens on 127.0.0.1 and a free port for callers connecting directly.</summary>
    public IPEndPoint Listen()
    {
        _listener = new TcpListener(IPAddress.Loopback, 0);
        _listener.Start(512);
        _accepting = AcceptAsync(_listener);
        return (IPEndPoint)_listener.LocalEndpoint;
    }

    /// <summary>Connects to the router at <paramref name="router"/> and registers as the provider of <c>values</c>.</summary>
    public abstract Task RegisterAsync(EndPoint router, CancellationToken cancellationToken);

    /// <summary>Serves <c>values</c> on a connection, until it ends or the generator stops.</summary>
    protected abstract void Serve(NetworkStream stream);

    /// <summary>Ends what <see cref="Serve"/> started, once the generator has stopped accepting.</summary>
    protected abstract ValueTask StopServingAsync();

    protected void CountBatches(long batches) => Interlocked.Add(ref _batches, batches);

    /// <summary>A connected socket with <c>NoDelay</c>, as a stream that owns it.</summary>
    public static async Task<NetworkStream> ConnectAsync(EndPoint endPoint, CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(endPoint, cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            socket.Dispose();
            throw;
        }

        return new NetworkStream(socket, ownsSocket: true);
    }

    private async Task AcceptAsync(TcpListener listener)
    {
        try
        {
            while (true)
            {
                var socket = await listener.AcceptSocketAsync(_stop.Token).ConfigureAwait(false);
                socket.NoDelay = true;
                Serve(new NetworkStream(socket, ownsSocket: true));
            }
        }
        catch (Exception) when (_stop.IsCancellationRequested)
        {
            // Stopped.
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        _listener?.Stop();
        await _accepting.ConfigureAwait(false);
        await StopServingAsync().ConfigureAwait(false);
        _stop.Dispose();
    }
}
