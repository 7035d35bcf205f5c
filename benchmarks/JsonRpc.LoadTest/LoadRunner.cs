using System.Globalization;
using System.Net;
using JsonRpc.LoadTest.Engine;
using JsonRpc.LoadTest.Report;

namespace JsonRpc.LoadTest;

/// <summary>
/// The load generator's engine: for each caller implementation asked for, starts a router (in-process unless
/// <see cref="LoadOptions.Connect"/>), the echo providers (unless direct) and the caller connections, runs warm-up,
/// measured window and drain, and reports. Everything is bounded: sockets are cut at warm-up + duration + grace.
/// </summary>
public static class LoadRunner
{
    /// <summary>Runs the workload once per caller implementation in <see cref="LoadOptions.Caller"/>.</summary>
    /// <param name="options">The workload.</param>
    /// <param name="progress">Where progress lines go, or null for none.</param>
    /// <param name="overwrite">Rewrite the progress line in place (a terminal) rather than one line per second.</param>
    /// <param name="cancellationToken">Stops early; the report then shows what was missing.</param>
    public static async Task<LoadReport> RunAsync(LoadOptions options, TextWriter? progress = null, bool overwrite = false, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(options);
        var report = new LoadReport { StartedAt = DateTimeOffset.UtcNow, Machine = SystemMetrics.DescribeMachine(), Runs = [] };
        ClientKind[] callers = options.Caller switch
        {
            CallerChoice.Client => [ClientKind.Client],
            CallerChoice.Both => [ClientKind.Raw, ClientKind.Client],
            _ => [ClientKind.Raw],
        };

        foreach (var caller in callers)
        {
            report.Runs.Add(await RunOnceAsync(options, caller, progress, overwrite, cancellationToken).ConfigureAwait(false));
        }

        return report;
    }

    private static async Task<RunReport> RunOnceAsync(LoadOptions options, ClientKind callerKind, TextWriter? progress, bool overwrite, CancellationToken cancellationToken)
    {
        var label = Label(options, callerKind);
        progress?.WriteLine($"{label}");
        using var setup = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        setup.CancelAfter(TimeSpan.FromSeconds(60));

        await using var host = options.Connect is null ? await RouterHost.StartAsync(options, setup.Token).ConfigureAwait(false) : null;
        EndPoint endPoint = host?.EndPoint ?? (EndPoint)options.Connect!;
        var providers = new List<IEchoProvider>();
        var callers = new List<ICaller>();
        try
        {
            if (!options.Direct)
            {
                for (var p = 0; p < options.Providers; p++)
                {
                    var name = string.Create(CultureInfo.InvariantCulture, $"echo-{Environment.ProcessId}-{p}");
                    providers.Add(await StartProviderAsync(options.Provider, (EndPoint?)options.ProviderConnect ?? endPoint, name, options, setup.Token).ConfigureAwait(false));
                }

                if (options.ProviderConnect is not null)
                {
                    await WaitUntilListedAsync(endPoint, options.Providers, setup.Token).ConfigureAwait(false);
                }
            }

            // Connect every caller before the clock starts, so that warm-up is calls only.
            var connecting = new Task<Func<RunClock, ICaller>>[options.Connections];
            for (var c = 0; c < options.Connections; c++)
            {
                connecting[c] = ConnectCallerAsync(callerKind, endPoint, new EchoPayload(options.PayloadBytes, c), options.EffectiveWindow, setup.Token);
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
            var cpu = SampleCpuAsync(clock, running);
            await new ProgressReporter(progress, overwrite, clock, ledgers).RunAsync(running).ConfigureAwait(false);
            await running.ConfigureAwait(false);
            var (cpuStart, cpuEnd) = await cpu.ConfigureAwait(false);

            var stats = host?.Router.GetStats();
            var target = options.Connect is null ? "in-process" : $"{options.Connect.Host}:{options.Connect.Port}"
                + (options.ProviderConnect is { } pc ? $" (providers on {pc.Host}:{pc.Port})" : string.Empty);
            // Stopped early (Ctrl+C): the measured window ends where the run was stopped.
            var measured = stoppedAt == 0 ? options.Duration : System.Diagnostics.Stopwatch.GetElapsedTime(clock.MeasureStart, Math.Clamp(stoppedAt, clock.MeasureStart, clock.MeasureEnd));
            if (stoppedAt != 0)
            {
                progress?.WriteLine($"  stopped early: {measured.TotalSeconds:0.0} s of the measured window ran");
            }

            var run = Summarize(options, callerKind, label, ledgers, measured, SystemMetrics.Compare(cpuStart, cpuEnd), target, stats);
            foreach (var provider in providers)
            {
                if (provider.Failure is { } failure)
                {
                    progress?.WriteLine($"  provider: {failure}");
                }
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

    private static async Task<IEchoProvider> StartProviderAsync(ClientKind kind, EndPoint endPoint, string name, LoadOptions options, CancellationToken cancellationToken)
        => kind == ClientKind.Client
            ? await ClientEchoProvider.StartAsync(endPoint, name, options.PayloadBytes, cancellationToken).ConfigureAwait(false)
            : await RawEchoProvider.StartAsync(endPoint, name, options.PayloadBytes + 128, cancellationToken).ConfigureAwait(false);

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

    private static Task<Func<RunClock, ICaller>> ConnectCallerAsync(ClientKind kind, EndPoint endPoint, EchoPayload payload, int window, CancellationToken cancellationToken)
        => kind == ClientKind.Client
            ? ClientCaller.ConnectAsync(endPoint, payload, window, cancellationToken)
            : RawCaller.ConnectAsync(endPoint, payload, window, cancellationToken);

    /// <summary>CPU readings at the start and the end of the measured window.</summary>
    private static async Task<(CpuSample Start, CpuSample End)> SampleCpuAsync(RunClock clock, Task running)
    {
        await Task.WhenAny(running, Task.Delay(TimeUntil(clock.MeasureStart))).ConfigureAwait(false);
        var start = SystemMetrics.SampleCpu();
        await Task.WhenAny(running, Task.Delay(TimeUntil(clock.MeasureEnd))).ConfigureAwait(false);
        return (start, SystemMetrics.SampleCpu());
    }

    private static TimeSpan TimeUntil(long timestamp)
        => System.Diagnostics.Stopwatch.GetElapsedTime(System.Diagnostics.Stopwatch.GetTimestamp(), timestamp) is var left && left > TimeSpan.Zero ? left : TimeSpan.Zero;

    private static string Label(LoadOptions options, ClientKind caller)
        => string.Create(CultureInfo.InvariantCulture,
            $"{(options.Direct ? "direct" : "routed")} {(options.Mode == LoadMode.Closed ? "closed" : $"pipelined w={options.Window}")} c={options.Connections} payload={options.PayloadBytes}B caller={Name(caller)}{(options.Direct ? string.Empty : $" provider={Name(options.Provider)}")}");

    private static string Name(ClientKind kind) => kind == ClientKind.Raw ? "raw" : "client";

    private static RunReport Summarize(LoadOptions options, ClientKind caller, string label, CallLedger[] ledgers, TimeSpan window, CpuReport cpu, string target, Server.JsonRpcRouterStats? stats)
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

        var seconds = Math.Max(window.TotalSeconds, 1e-3);
        var missing = sent - answered;
        return new RunReport
        {
            Label = label,
            Caller = Name(caller),
            Provider = options.Direct ? "none" : Name(options.Provider),
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
            Latency = new LatencyReport
            {
                P50Us = Micros(latency.Percentile(0.50)),
                P99Us = Micros(latency.Percentile(0.99)),
                P999Us = Micros(latency.Percentile(0.999)),
                MaxUs = Micros(latency.Max),
                MeanUs = Math.Round(latency.Mean / 1000, 1),
            },
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
            Router = stats is null ? null : new RouterReport
            {
                CallsRouted = stats.CallsRouted,
                ServerCalls = stats.ServerCalls,
                MessagesIn = stats.MessagesIn,
                MessagesOut = stats.MessagesOut,
                BytesIn = stats.BytesIn,
                BytesOut = stats.BytesOut,
                Errors = stats.Errors,
                AnswersDropped = stats.AnswersDropped,
            },
        };
    }

    private static double Micros(long nanoseconds) => Math.Round(nanoseconds / 1000.0, 1);
}
