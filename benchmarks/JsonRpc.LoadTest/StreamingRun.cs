using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using JsonRpc.LoadTest.Engine;
using JsonRpc.LoadTest.Report;
using StreamJsonRpc;

namespace JsonRpc.LoadTest;

/// <summary>
/// The streaming case (<c>--streaming</c>): StreamJsonRpc 2.26 async enumerables, as their users stream values. A
/// StreamJsonRpc generator serves <c>values(count)</c>, an <see cref="IAsyncEnumerable{T}"/> of 0 … count-1; each of
/// <see cref="LoadOptions.Connections"/> StreamJsonRpc callers enumerates one stream after another and checks every
/// value. Run four times, each with fresh peers: the callers connected to the generator directly (a TCP listener, as
/// StreamJsonRpc's documentation sets one up) and through the router (the generator a registered provider), with
/// prefetch off (every value is one <c>$/enumerator/next</c> round trip) and on (the first
/// <see cref="LoadOptions.Prefetch"/> values in the answer, and the generator reading that many ahead, so that each
/// pull takes what is ready). Both sides use StreamJsonRpc's default handler and formatter (Content-Length headers, Newtonsoft.Json).
/// </summary>
public static class StreamingRun
{
    public static async Task<LoadReport> RunAsync(LoadOptions options, TextWriter? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        var report = new LoadReport { StartedAt = DateTimeOffset.UtcNow, Machine = SystemMetrics.DescribeMachine(), Runs = [] };
        var runs = new List<StreamingRunReport>();
        var router = "in-process";
        foreach (var prefetch in new[] { 0, options.Prefetch })
        {
            foreach (var routed in new[] { false, true })
            {
                var (run, where) = await MeasureAsync(options, prefetch, routed, cancellationToken).ConfigureAwait(false);
                router = routed ? where : router;
                runs.Add(run);
                progress?.WriteLine($"  {run.Path,-7} prefetch {prefetch,4}: {run.ValuesPerSecond,12:N0} values/s ({run.Values:N0} values, {run.Streams:N0} streams){(run.Problem is null ? "" : "  PROBLEM: " + run.Problem)}");
            }
        }

        double Share(int prefetch) => Math.Round(
            runs.Single(r => r.Path == "router" && r.Prefetch == prefetch).ValuesPerSecond / runs.Single(r => r.Path == "direct" && r.Prefetch == prefetch).ValuesPerSecond, 3);
        return report with
        {
            Streaming = new StreamingReport
            {
                StreamLength = options.StreamLength,
                Connections = options.Connections,
                Prefetch = options.Prefetch,
                Router = router,
                Runs = runs,
                RoutedShare = Share(0),
                RoutedSharePrefetch = Share(options.Prefetch),
            },
        };
    }

    private static async Task<(StreamingRunReport Run, string Router)> MeasureAsync(LoadOptions options, int prefetch, bool routed, CancellationToken cancellationToken)
    {
        using var setup = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        setup.CancelAfter(TimeSpan.FromSeconds(60));
        await using var generator = new Generator(prefetch);
        LoadTarget? target = null;
        StreamJsonRpc.JsonRpc? provider = null;
        var callers = new List<StreamJsonRpc.JsonRpc>();
        try
        {
            EndPoint endPoint;
            if (routed)
            {
                target = await LoadTarget.StartAsync(options, Implementations.Ours, setup.Token).ConfigureAwait(false);
                endPoint = target.EndPoint;
                provider = await ConnectAsync((EndPoint?)target.ProviderEndPoint ?? endPoint, generator.Serve, setup.Token).ConfigureAwait(false);
                await provider.InvokeWithParameterObjectAsync<bool>("register_client", new { name = "streams" }, setup.Token).ConfigureAwait(false);
                await provider.InvokeWithParameterObjectAsync<bool>("register_method", new { method = "values" }, setup.Token).ConfigureAwait(false);
            }
            else
            {
                endPoint = generator.Listen();
            }

            for (var i = 0; i < options.Connections; i++)
            {
                callers.Add(await ConnectAsync(endPoint, null, setup.Token).ConfigureAwait(false));
            }

            var counts = new long[callers.Count];
            var streams = new long[callers.Count];
            string? problem = null;
            using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            var enumerating = callers.Select((caller, i) => Task.Run(async () =>
            {
                try
                {
                    while (!stop.IsCancellationRequested)
                    {
                        var values = await caller.InvokeWithCancellationAsync<IAsyncEnumerable<int>>("values", [options.StreamLength], stop.Token).ConfigureAwait(false);
                        Interlocked.Increment(ref streams[i]);
                        var expected = 0;
                        await foreach (var value in values.WithCancellation(stop.Token).ConfigureAwait(false))
                        {
                            if (value != expected)
                            {
                                Interlocked.CompareExchange(ref problem, $"connection {i}: value {value} where {expected} was due", null);
                                return;
                            }

                            expected++;
                            Volatile.Write(ref counts[i], counts[i] + 1);
                        }

                        if (expected != options.StreamLength)
                        {
                            Interlocked.CompareExchange(ref problem, $"connection {i}: a stream ended after {expected} of {options.StreamLength} values", null);
                            return;
                        }
                    }
                }
                catch (Exception) when (stop.IsCancellationRequested)
                {
                    // The run is over: the stream in progress was cut off on purpose.
                }
                catch (Exception ex)
                {
                    Interlocked.CompareExchange(ref problem, $"connection {i}: {ex.GetType().Name}: {ex.Message}", null);
                }
            }, CancellationToken.None)).ToArray();

            await Task.Delay(options.Warmup, cancellationToken).ConfigureAwait(false);
            var before = Sum(counts);
            var clock = Stopwatch.StartNew();
            await Task.Delay(options.Duration, cancellationToken).ConfigureAwait(false);
            var values = Sum(counts) - before;
            var seconds = clock.Elapsed.TotalSeconds;
            await stop.CancelAsync().ConfigureAwait(false);
            await Task.WhenAll(enumerating).WaitAsync(options.Grace, CancellationToken.None).ConfigureAwait(false);
            var run = new StreamingRunReport
            {
                Path = routed ? "router" : "direct",
                Prefetch = prefetch,
                Values = values,
                Streams = streams.Sum(),
                Seconds = Math.Round(seconds, 2),
                ValuesPerSecond = Math.Round(values / seconds),
                Problem = problem ?? (values == 0 ? "no value arrived in the measured window" : null),
            };
            return (run, target?.ProcessCommand ?? target?.Description ?? "in-process");
        }
        finally
        {
            foreach (var caller in callers)
            {
                caller.Dispose();
            }

            provider?.Dispose();
            if (target is not null)
            {
                await target.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    private static long Sum(long[] counts)
    {
        long sum = 0;
        for (var i = 0; i < counts.Length; i++)
        {
            sum += Volatile.Read(ref counts[i]);
        }

        return sum;
    }

    private static async Task<StreamJsonRpc.JsonRpc> ConnectAsync(EndPoint endPoint, Action<StreamJsonRpc.JsonRpc>? setup, CancellationToken cancellationToken)
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

        var rpc = new StreamJsonRpc.JsonRpc(Handler(new NetworkStream(socket, ownsSocket: true)));
        setup?.Invoke(rpc);
        rpc.StartListening();
        return rpc;
    }

    /// <summary>
    /// StreamJsonRpc's default: <c>Content-Length</c> headers and its Newtonsoft.Json formatter. (Its newline handler with
    /// the System.Text.Json formatter hands callers corrupt enumerator batches under this load, directly as through the
    /// router: values out of order, results that do not parse; see the results README.)
    /// </summary>
    private static HeaderDelimitedMessageHandler Handler(NetworkStream stream) => new(stream, stream);

    /// <summary>The generator: serves <c>values</c> on its connection to the router, or on each connection it accepts.</summary>
    private sealed class Generator(int prefetch) : IAsyncDisposable
    {
        private readonly CancellationTokenSource _stop = new();
        private readonly List<StreamJsonRpc.JsonRpc> _accepted = [];
        private TcpListener? _listener;
        private Task _accepting = Task.CompletedTask;

        public void Serve(StreamJsonRpc.JsonRpc rpc)
            => rpc.AddLocalRpcMethod("values", new Func<int, CancellationToken, ValueTask<IAsyncEnumerable<int>>>(ValuesAsync));

        private ValueTask<IAsyncEnumerable<int>> ValuesAsync(int count, CancellationToken cancellationToken)
        {
            var values = Generate(count);
            return prefetch == 0
                ? ValueTask.FromResult(values)
                : values.WithJsonRpcSettings(new JsonRpcEnumerableSettings { MaxReadAhead = prefetch }).WithPrefetchAsync(prefetch, cancellationToken);
        }

        private static async IAsyncEnumerable<int> Generate(int count, [EnumeratorCancellation] CancellationToken cancellationToken = default)
        {
            for (var i = 0; i < count; i++)
            {
                cancellationToken.ThrowIfCancellationRequested();
                yield return i;
            }

            await Task.CompletedTask.ConfigureAwait(false);
        }

        /// <summary>Listens on 127.0.0.1 and a free port, serving each connection as StreamJsonRpc's documentation does.</summary>
        public IPEndPoint Listen()
        {
            _listener = new TcpListener(IPAddress.Loopback, 0);
            _listener.Start(512);
            _accepting = AcceptAsync(_listener);
            return (IPEndPoint)_listener.LocalEndpoint;
        }

        private async Task AcceptAsync(TcpListener listener)
        {
            try
            {
                while (true)
                {
                    var socket = await listener.AcceptSocketAsync(_stop.Token).ConfigureAwait(false);
                    socket.NoDelay = true;
                    var rpc = new StreamJsonRpc.JsonRpc(Handler(new NetworkStream(socket, ownsSocket: true)));
                    Serve(rpc);
                    rpc.StartListening();
                    lock (_accepted)
                    {
                        _accepted.Add(rpc);
                    }
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
            lock (_accepted)
            {
                foreach (var rpc in _accepted)
                {
                    rpc.Dispose();
                }
            }

            _stop.Dispose();
        }
    }
}
