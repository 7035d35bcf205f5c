using System.Diagnostics;
using System.Net;
using JsonRpc.LoadTest.Engine;
using JsonRpc.LoadTest.Report;

namespace JsonRpc.LoadTest;

/// <summary>
/// The streaming case (<c>--streaming</c>): async enumerables, as their users stream values. A generator serves
/// <c>values(count)</c>, an <see cref="IAsyncEnumerable{T}"/> of 0 … count-1; each of <see cref="LoadOptions.Connections"/>
/// callers enumerates one stream after another and checks every value. For each stack asked for
/// (<see cref="LoadOptions.StreamingStacks"/>: StreamJsonRpc 2.26 peers, and ours, JsonRpcClient callers and a
/// JsonRpcDispatcher generator), run four times, each with fresh peers: the callers connected to the generator directly
/// (a TCP listener) and through the router (the generator a registered provider), with prefetch off (every value is
/// one <c>$/enumerator/next</c> round trip) and on (the first <see cref="LoadOptions.Prefetch"/> values in the answer,
/// and the generator reading that many ahead, so that each pull takes what is ready). Where the router runs as a
/// process of its own, the routed runs also report its CPU time and system calls (perf) per streamed value and per
/// batch (the generator's answers: calls and pulls), read over the measured window as the call workloads read them.
/// </summary>
public static class StreamingRun
{
    public static async Task<LoadReport> RunAsync(LoadOptions options, TextWriter? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        var report = new LoadReport { StartedAt = DateTimeOffset.UtcNow, Machine = SystemMetrics.DescribeMachine(), Runs = [] };
        var runs = new List<StreamingRunReport>();
        var router = "in-process";
        foreach (var stack in options.StreamingStacks)
        {
            foreach (var prefetch in new[] { 0, options.Prefetch })
            {
                foreach (var routed in new[] { false, true })
                {
                    var (run, where) = await MeasureAsync(options, stack, prefetch, routed, cancellationToken).ConfigureAwait(false);
                    router = routed ? where : router;
                    runs.Add(run);
                    progress?.WriteLine(Line(run));
                }
            }
        }

        double? Share(string stack, int prefetch)
            => runs.SingleOrDefault(r => r.Stack == stack && r.Path == "router" && r.Prefetch == prefetch) is { } routed
                && runs.SingleOrDefault(r => r.Stack == stack && r.Path == "direct" && r.Prefetch == prefetch) is { ValuesPerSecond: > 0 } direct
                ? Math.Round(routed.ValuesPerSecond / direct.ValuesPerSecond, 3)
                : null;
        return report with
        {
            Streaming = new StreamingReport
            {
                StreamLength = options.StreamLength,
                Connections = options.Connections,
                Prefetch = options.Prefetch,
                Router = router,
                Runs = runs,
                RoutedShare = Share(Stacks.StreamJsonRpc, 0),
                RoutedSharePrefetch = Share(Stacks.StreamJsonRpc, options.Prefetch),
                OursRoutedShare = Share(Stacks.Ours, 0),
                OursRoutedSharePrefetch = Share(Stacks.Ours, options.Prefetch),
            },
        };
    }

    /// <summary>One run as a line: its speed and, where measured, the router process's CPU and system calls per value and per batch.</summary>
    internal static string Line(StreamingRunReport run)
    {
        var router = run.RouterCpuUsPerValue is { } cpu
            ? $"; router {cpu:N2} us CPU, {Format(run.RouterSyscallsPerValue)} syscalls a value; {Format(run.RouterCpuUsPerBatch)} us, {Format(run.RouterSyscallsPerBatch)} syscalls a batch"
            : string.Empty;
        return string.Create(System.Globalization.CultureInfo.InvariantCulture,
            $"  {run.Stack,-13} {run.Path,-7} prefetch {run.Prefetch,4}  {run.ValuesPerSecond,12:N0} values/s   ({run.Values:N0} values in {run.Seconds:N1} s, {run.Streams:N0} streams, {run.ValuesPerBatch:N1} values a batch){router}{(run.Problem is null ? "" : "  PROBLEM: " + run.Problem)}");

        static string Format(double? value) => value is { } v ? v.ToString("N2", System.Globalization.CultureInfo.InvariantCulture) : "?";
    }

    private static async Task<(StreamingRunReport Run, string Router)> MeasureAsync(LoadOptions options, StreamingStack stack, int prefetch, bool routed, CancellationToken cancellationToken)
    {
        using var setup = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        setup.CancelAfter(TimeSpan.FromSeconds(60));
        await using StreamGenerator generator = stack == StreamingStack.Ours
            ? new DispatcherGenerator(prefetch, options.Connections)
            : new StreamJsonRpcGenerator(prefetch);
        LoadTarget? target = null;
        var callers = new List<IStreamConsumer>();
        try
        {
            EndPoint endPoint;
            if (routed)
            {
                target = await LoadTarget.StartAsync(options, Implementations.Ours, setup.Token).ConfigureAwait(false);
                endPoint = target.EndPoint;
                await generator.RegisterAsync(target.ProviderEndPoint, setup.Token).ConfigureAwait(false);
            }
            else
            {
                endPoint = generator.Listen();
            }

            for (var i = 0; i < options.Connections; i++)
            {
                callers.Add(stack == StreamingStack.Ours
                    ? await ClientStreamConsumer.ConnectAsync(endPoint, setup.Token).ConfigureAwait(false)
                    : await StreamJsonRpcConsumer.ConnectAsync(endPoint, setup.Token).ConfigureAwait(false));
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
                        Interlocked.Increment(ref streams[i]);
                        var expected = 0;
                        await foreach (var value in caller.StreamAsync(options.StreamLength, stop.Token).ConfigureAwait(false))
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
            var batchesBefore = generator.Batches;
            var clock = Stopwatch.StartNew();
            var window = MeasuredWindow.Begin(target?.Probe);
            await Task.Delay(options.Duration, cancellationToken).ConfigureAwait(false);
            var values = Sum(counts) - before;
            var batches = generator.Batches - batchesBefore;
            var seconds = clock.Elapsed.TotalSeconds;
            var samples = await window.EndAsync().ConfigureAwait(false);
            await stop.CancelAsync().ConfigureAwait(false);
            await Task.WhenAll(enumerating).WaitAsync(options.Grace, CancellationToken.None).ConfigureAwait(false);
            var valuesPerSecond = values / seconds;
            var process = target is null ? null : LoadRunner.DescribeProcess(target, samples, valuesPerSecond);
            var valuesPerBatch = batches > 0 ? (double)values / batches : 0;
            var run = new StreamingRunReport
            {
                Stack = stack == StreamingStack.Ours ? Stacks.Ours : Stacks.StreamJsonRpc,
                Path = routed ? "router" : "direct",
                Prefetch = prefetch,
                Values = values,
                Streams = streams.Sum(),
                Batches = batches,
                ValuesPerBatch = Math.Round(valuesPerBatch, 2),
                Seconds = Math.Round(seconds, 2),
                ValuesPerSecond = Math.Round(valuesPerSecond),
                RouterProcess = process,
                RouterCpuUsPerValue = process?.CpuUsPerCall,
                RouterSyscallsPerValue = process?.SyscallsPerCall,
                RouterCpuUsPerBatch = process?.CpuUsPerCall is { } us && valuesPerBatch > 0 ? Math.Round(us * valuesPerBatch, 2) : null,
                RouterSyscallsPerBatch = process?.SyscallsPerCall is { } calls && valuesPerBatch > 0 ? Math.Round(calls * valuesPerBatch, 2) : null,
                Problem = problem ?? (values == 0 ? "no value arrived in the measured window" : null),
            };
            return (run, target?.ProcessCommand ?? target?.Description ?? "in-process");
        }
        finally
        {
            foreach (var caller in callers)
            {
                await caller.DisposeAsync().ConfigureAwait(false);
            }

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

    /// <summary>The stacks' names in the report.</summary>
    internal static class Stacks
    {
        public const string StreamJsonRpc = "streamjsonrpc";
        public const string Ours = "ours";
    }
}
