using System.Globalization;
using System.Net;
using JsonRpc.LoadTest.Engine;
using JsonRpc.LoadTest.Report;

namespace JsonRpc.LoadTest;

/// <summary>
/// The load generator's engine: for each caller implementation asked for, and then for the peer, starts the server
/// (our router in-process, as its own process or a running one; StreamJsonRpc's; nats-server), the echo providers
/// (unless direct) and the caller connections, runs warm-up, measured window and drain, and reports. Everything is
/// bounded: sockets are cut at warm-up + duration + grace.
/// </summary>
public static class LoadRunner
{
    /// <summary>
    /// Runs the workload once per caller implementation in <see cref="LoadOptions.Caller"/>, then, with
    /// <see cref="LoadOptions.Peer"/>, the peer on the same workload: StreamJsonRpc with the same callers, or NATS
    /// with NATS.Net callers.
    /// </summary>
    /// <param name="options">The workload.</param>
    /// <param name="progress">Where progress lines go, or null for none.</param>
    /// <param name="overwrite">Rewrite the progress line in place (a terminal) rather than one line per second.</param>
    /// <param name="cancellationToken">Stops early; the report then shows what was missing.</param>
    public static async Task<LoadReport> RunAsync(LoadOptions options, TextWriter? progress = null, bool overwrite = false, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(options);
        var report = new LoadReport { StartedAt = DateTimeOffset.UtcNow, Machine = SystemMetrics.DescribeMachine(), Runs = [] };
        foreach (var (implementation, caller) in Plan(options))
        {
            report.Runs.Add(await RunOnceAsync(options, implementation, caller, progress, overwrite, cancellationToken).ConfigureAwait(false));
        }

        return report;
    }

    /// <summary>The runs, in order: ours with each caller asked for, then the peer.</summary>
    internal static List<(string Implementation, CallerKind Caller)> Plan(LoadOptions options)
    {
        CallerKind[] callers = options.Caller switch
        {
            CallerChoice.Client => [CallerKind.Client],
            CallerChoice.Both => [CallerKind.Raw, CallerKind.Client],
            _ => [CallerKind.Raw],
        };
        var plan = callers.Select(caller => (Implementations.Ours, caller)).ToList();
        switch (options.Peer)
        {
            case Peer.StreamJsonRpc:
                plan.AddRange(callers.Select(caller => (Implementations.StreamJsonRpc, caller)));
                break;
            case Peer.Nats:
                plan.Add((Implementations.Nats, CallerKind.Nats));
                break;
        }

        return plan;
    }

    private static async Task<RunReport> RunOnceAsync(LoadOptions options, string implementation, CallerKind callerKind, TextWriter? progress, bool overwrite, CancellationToken cancellationToken)
    {
        var label = Label(options, implementation, callerKind);
        progress?.WriteLine($"{label}");
        using var setup = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        setup.CancelAfter(TimeSpan.FromSeconds(90));

        await using var target = await LoadTarget.StartAsync(options, implementation, setup.Token).ConfigureAwait(false);
        var providers = new List<IEchoProvider>();
        var callers = new List<ICaller>();
        try
        {
            if (!options.Direct)
            {
                for (var p = 0; p < options.Providers; p++)
                {
                    var name = string.Create(CultureInfo.InvariantCulture, $"echo-{Environment.ProcessId}-{p}");
                    providers.Add(await StartProviderAsync(target, options.Provider, name, options, setup.Token).ConfigureAwait(false));
                }

                if (options.ProviderConnect is not null)
                {
                    await WaitUntilListedAsync(target.EndPoint, options.Providers, setup.Token).ConfigureAwait(false);
                }
            }

            // Connect every caller before the clock starts, so that warm-up is calls only.
            var connecting = new Task<Func<RunClock, ICaller>>[options.Connections];
            for (var c = 0; c < options.Connections; c++)
            {
                connecting[c] = ConnectCallerAsync(target, callerKind, new EchoPayload(options.PayloadBytes, c), options.EffectiveWindow, c, setup.Token);
            }

            Func<RunClock, ICaller>[] factories;
            try
            {
                factories = await Task.WhenAll(connecting).ConfigureAwait(false);
            }
            catch
            {
                // Close the connections that did open before giving up.
                foreach (var connected in connecting)
                {
                    if (connected.IsCompletedSuccessfully)
                    {
                        await connected.Result(new RunClock(TimeSpan.Zero, TimeSpan.Zero, TimeSpan.Zero)).DisposeAsync().ConfigureAwait(false);
                    }
                }

                throw;
            }

            var clock = new RunClock(options.Warmup, options.Duration, options.Grace);
            foreach (var factory in factories)
            {
                callers.Add(factory(clock));
            }

            var ledgers = callers.SelectMany(c => c.Ledgers).ToArray();
            using var hardStop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            hardStop.CancelAfter(clock.UntilHardStop);
            long stoppedAt = 0;
            await using var interrupted = cancellationToken.Register(() => Interlocked.CompareExchange(ref stoppedAt, System.Diagnostics.Stopwatch.GetTimestamp(), 0));
            var running = Task.WhenAll(callers.Select(c => c.RunAsync(hardStop.Token)));
            var cpu = SampleCpuAsync(clock, running, target.Probe);
            await new ProgressReporter(progress, overwrite, clock, ledgers).RunAsync(running).ConfigureAwait(false);
            await running.ConfigureAwait(false);
            var samples = await cpu.ConfigureAwait(false);

            // Stopped early (Ctrl+C): the measured window ends where the run was stopped.
            var measured = stoppedAt == 0 ? options.Duration : System.Diagnostics.Stopwatch.GetElapsedTime(clock.MeasureStart, Math.Clamp(stoppedAt, clock.MeasureStart, clock.MeasureEnd));
            if (stoppedAt != 0)
            {
                progress?.WriteLine($"  stopped early: {measured.TotalSeconds:0.0} s of the measured window ran");
            }

            var callsPerSecond = ledgers.Sum(ledger => ledger.Measured) / Math.Max(measured.TotalSeconds, 1e-3);
            var server = DescribeProcess(target, samples, callsPerSecond);
            var cpuReport = SystemMetrics.Compare(samples.Start, samples.End);
            if (server is not null)
            {
                // "Others" is everything but this tool and the server it loads.
                cpuReport = cpuReport with { OthersPercent = Math.Round(Math.Max(0, cpuReport.OthersPercent - server.CpuPercent), 1) };
            }

            var run = Summarize(options, implementation, callerKind, label, ledgers, measured, cpuReport, target.Description, target.RouterStats())
                with { ServerProcess = server };
            foreach (var provider in providers)
            {
                if (provider.Failure is { } failure)
                {
                    progress?.WriteLine($"  provider: {failure}");
                }
            }

            if (target.ProcessFailure is { } exited)
            {
                progress?.WriteLine($"  {exited}");
            }

            return run;
        }
        finally
        {
            foreach (var caller in callers)
            {
                await caller.DisposeAsync().ConfigureAwait(false);
            }

            foreach (var provider in providers)
            {
                await provider.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    private static async Task<IEchoProvider> StartProviderAsync(LoadTarget target, ClientKind kind, string name, LoadOptions options, CancellationToken cancellationToken)
        => target.Implementation == Implementations.Nats
            ? await NatsEchoResponder.StartAsync(target.NatsUrl, name, cancellationToken).ConfigureAwait(false)
            : kind == ClientKind.Client
                ? await ClientEchoProvider.StartAsync(target.ProviderEndPoint, name, options.PayloadBytes, cancellationToken).ConfigureAwait(false)
                : await RawEchoProvider.StartAsync(target.ProviderEndPoint, name, options.PayloadBytes + 128, cancellationToken).ConfigureAwait(false);

    /// <summary>
    /// Waits until the callers' node lists <paramref name="count"/> providers of <c>echo</c>: registered on another
    /// node of a cluster, they reach this one within milliseconds, but not before the first call.
    /// </summary>
    private static async Task WaitUntilListedAsync(EndPoint endPoint, int count, CancellationToken cancellationToken)
    {
        await using var observer = await ClientConnections.ConnectAsync(endPoint, 0, cancellationToken).ConfigureAwait(false);
        while (true)
        {
            var list = await observer.CallAsync("list_methods", cancellationToken: cancellationToken).ConfigureAwait(false);
            using var document = System.Text.Json.JsonDocument.Parse(list.Utf8);
            foreach (var entry in document.RootElement.EnumerateArray())
            {
                if (entry.GetProperty("method"u8).ValueEquals("echo"u8) && entry.GetProperty("providers"u8).GetArrayLength() >= count)
                {
                    return;
                }
            }

            await Task.Delay(20, cancellationToken).ConfigureAwait(false);
        }
    }

    private static Task<Func<RunClock, ICaller>> ConnectCallerAsync(LoadTarget target, CallerKind kind, EchoPayload payload, int window, int connection, CancellationToken cancellationToken)
        => kind switch
        {
            CallerKind.Nats => NatsCaller.ConnectAsync(target.NatsUrl, payload, window, string.Create(CultureInfo.InvariantCulture, $"caller-{connection}"), cancellationToken),
            CallerKind.Client => ClientCaller.ConnectAsync(target.EndPoint, payload, window, cancellationToken),
            _ => RawCaller.ConnectAsync(target.EndPoint, payload, window, cancellationToken),
        };

    /// <summary>
    /// CPU readings (this machine and, where it runs apart, the server's process) at the start and the end of the
    /// measured window, and the server process's system calls over the window (perf).
    /// </summary>
    internal static async Task<CpuSamples> SampleCpuAsync(RunClock clock, Task running, ProcessProbe? server)
    {
        await Task.WhenAny(running, Task.Delay(TimeUntil(clock.MeasureStart))).ConfigureAwait(false);
        var window = MeasuredWindow.Begin(server);
        await Task.WhenAny(running, Task.Delay(TimeUntil(clock.MeasureEnd))).ConfigureAwait(false);
        return await window.EndAsync().ConfigureAwait(false);
    }

    /// <summary>
    /// The server process over the window: its CPU time and memory, and per call (at the window's calls/s) its CPU
    /// microseconds and system calls. The streaming case passes streamed values per second as its calls per second.
    /// </summary>
    internal static ServerProcessReport? DescribeProcess(LoadTarget target, CpuSamples samples, double callsPerSecond)
    {
        if (target.Probe is not { } probe)
        {
            return null;
        }

        var window = System.Diagnostics.Stopwatch.GetElapsedTime(samples.Start.Timestamp, samples.End.Timestamp).TotalSeconds;
        var cpu = (samples.ServerEnd - samples.ServerStart).TotalSeconds;
        return new ServerProcessReport
        {
            Command = target.ProcessCommand ?? $"pid {probe.Pid}",
            Runtime = target.ProcessRuntime ?? "unknown",
            Gc = probe.GcMode(),
            CpuSeconds = Math.Round(cpu, 2),
            CpuPercent = window > 0 ? Math.Round(cpu / (window * Environment.ProcessorCount) * 100, 1) : 0,
            TotalCpuSeconds = Math.Round(probe.CpuTime().TotalSeconds, 2),
            StartRssMb = Megabytes(target.StartRss),
            EndRssMb = Megabytes(samples.ServerRss),
            PeakRssMb = Megabytes(probe.PeakRss()),
            CpuUsPerCall = callsPerSecond > 0 && window > 0 ? Math.Round(cpu / window * 1e6 / callsPerSecond, 2) : null,
            Syscalls = samples.ServerSyscalls?.Unavailable is null ? samples.ServerSyscalls?.Count : null,
            SyscallsPerCall = samples.ServerSyscalls?.PerSecond is { } perSecond && callsPerSecond > 0 ? Math.Round(perSecond / callsPerSecond, 3) : null,
            SyscallsUnavailable = samples.ServerSyscalls?.Unavailable,
        };
    }

    internal static double Megabytes(long bytes) => Math.Round(bytes / 1e6, 1);

    private static TimeSpan TimeUntil(long timestamp)
        => System.Diagnostics.Stopwatch.GetElapsedTime(System.Diagnostics.Stopwatch.GetTimestamp(), timestamp) is var left && left > TimeSpan.Zero ? left : TimeSpan.Zero;

    private static string Label(LoadOptions options, string implementation, CallerKind caller)
        => string.Create(CultureInfo.InvariantCulture,
            $"{implementation} {(options.Direct ? "direct" : "routed")} {(options.Mode == LoadMode.Closed ? "closed" : $"pipelined w={options.Window}")} c={options.Connections} payload={options.PayloadBytes}B caller={Name(caller)}{(options.Direct ? string.Empty : $" provider={ProviderName(options, implementation)}")}");

    private static string Name(CallerKind kind) => kind switch { CallerKind.Raw => "raw", CallerKind.Nats => "nats", _ => "client" };

    private static string ProviderName(LoadOptions options, string implementation)
        => options.Direct ? "none" : implementation == Implementations.Nats ? "nats" : options.Provider == ClientKind.Raw ? "raw" : "client";

    private static RunReport Summarize(LoadOptions options, string implementation, CallerKind caller, string label, CallLedger[] ledgers, TimeSpan window, CpuReport cpu, string target, RouterReport? stats)
    {
        var latency = new LatencyHistogram();
        long sent = 0, answered = 0, measured = 0, duplicates = 0, unexpected = 0, mismatches = 0, errorAnswers = 0, errors = 0, failed = 0;
        string? firstProblem = null;
        foreach (var ledger in ledgers)
        {
            latency.Add(ledger.Latency);
            sent += ledger.Sent;
            answered += ledger.Answered;
            measured += ledger.Measured;
            duplicates += ledger.Duplicates;
            unexpected += ledger.Unexpected;
            mismatches += ledger.Mismatches;
            errorAnswers += ledger.ErrorAnswers;
            errors += ledger.Errors;
            failed += ledger.Failure is null ? 0 : 1;
            firstProblem ??= ledger.FirstProblem;
        }

        // Lanes share their histograms per thread: each set counts once.
        foreach (var shared in ledgers.Select(l => l.SharedLatency).OfType<ThreadLocal<LatencyHistogram>>().Distinct())
        {
            foreach (var histogram in shared.Values)
            {
                latency.Add(histogram);
            }
        }

        var seconds = Math.Max(window.TotalSeconds, 1e-3);
        var missing = sent - answered;
        return new RunReport
        {
            Label = label,
            Implementation = implementation,
            Caller = Name(caller),
            Provider = ProviderName(options, implementation),
            Target = target,
            Mode = options.Mode == LoadMode.Closed ? "closed" : "pipelined",
            Window = options.EffectiveWindow,
            Connections = options.Connections,
            Providers = options.Direct ? 0 : options.Providers,
            PayloadBytes = options.PayloadBytes,
            Direct = options.Direct,
            WarmupSeconds = options.Warmup.TotalSeconds,
            DurationSeconds = seconds,
            Calls = measured,
            CallsPerSecond = Math.Round(measured / seconds, 1),
            PayloadMbps = Math.Round(measured * (double)options.PayloadBytes * 8 / 1e6 / seconds, 2),
            Latency = LatencyReport.From(latency),
            Errors = errors,
            Correctness = new CorrectnessReport
            {
                Passed = sent > 0 && missing == 0 && duplicates == 0 && unexpected == 0 && mismatches == 0 && errorAnswers == 0 && failed == 0,
                CallsSent = sent,
                Answers = answered,
                Missing = missing,
                Duplicates = duplicates,
                Unexpected = unexpected,
                Mismatches = mismatches,
                ErrorAnswers = errorAnswers,
                FailedConnections = failed,
                FirstProblem = firstProblem,
            },
            Cpu = cpu,
            Router = stats,
        };
    }
}
