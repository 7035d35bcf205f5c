using System.Globalization;
using System.Net;
using JsonRpc.LoadTest.Report;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The server one run loads, started fresh for the run where the tool starts it: our router (in this process, as
/// a process of its own with <c>--router</c>, or a running one with <c>--connect</c>), StreamJsonRpc's server in this
/// process, or nats-server (started from PATH, or a running one with <c>--nats-url</c>).
/// </summary>
internal sealed class LoadTarget : IAsyncDisposable
{
    private RouterHost? _host;
    private ServerProcess? _process;
    private StreamJsonRpcServer? _streamJsonRpc;

    private LoadTarget(string implementation, EndPoint endPoint, string description)
    {
        Implementation = implementation;
        EndPoint = endPoint;
        ProviderEndPoint = endPoint;
        Description = description;
    }

    /// <summary>"ours", "streamjsonrpc" or "nats".</summary>
    public string Implementation { get; }

    public EndPoint EndPoint { get; }

    /// <summary>Where the echo providers connect: <see cref="EndPoint"/>, or another node of the same cluster.</summary>
    public EndPoint ProviderEndPoint { get; private init; } = null!;

    /// <summary>For the report: "in-process", "process", HOST:PORT or a URL.</summary>
    public string Description { get; }

    /// <summary>The NATS server's URL (NATS only).</summary>
    public string NatsUrl { get; private init; } = string.Empty;

    /// <summary>The server's process when it is not this one, for its CPU time and memory.</summary>
    public ProcessProbe? Probe { get; private init; }

    /// <summary>How that process was started, for the report.</summary>
    public string? ProcessCommand { get; private init; }

    /// <summary>"jit" or "native", for the report.</summary>
    public string? ProcessRuntime { get; private init; }

    /// <summary>Its resident memory when the run began, in bytes.</summary>
    public long StartRss { get; private init; }

    public static async Task<LoadTarget> StartAsync(LoadOptions options, string implementation, CancellationToken cancellationToken)
    {
        switch (implementation)
        {
            case Implementations.StreamJsonRpc:
            {
                var server = StreamJsonRpcServer.Start();
                return new LoadTarget(implementation, server.EndPoint, "in-process") { _streamJsonRpc = server };
            }

            case Implementations.Nats when options.NatsUrl is { } url:
            {
                var uri = new Uri(url);
                return new LoadTarget(implementation, new DnsEndPoint(uri.Host, uri.Port), url) { NatsUrl = url };
            }

            case Implementations.Nats:
            {
                var nats = await ServerLaunch.StartNatsAsync(cancellationToken).ConfigureAwait(false);
                var url = string.Create(CultureInfo.InvariantCulture, $"nats://127.0.0.1:{nats.EndPoint.Port}");
                return new LoadTarget(implementation, nats.EndPoint, "process")
                {
                    _process = nats,
                    NatsUrl = url,
                    Probe = nats.Probe,
                    ProcessCommand = nats.Description,
                    ProcessRuntime = nats.Runtime,
                    StartRss = nats.StartRss,
                };
            }

            default:
                if (options.RouterPath is not null)
                {
                    var router = await ServerLaunch.StartRouterAsync(options, cancellationToken).ConfigureAwait(false);
                    return new LoadTarget(implementation, router.EndPoint, "process")
                    {
                        _process = router,
                        Probe = router.Probe,
                        ProcessCommand = router.Description,
                        ProcessRuntime = router.Runtime,
                        StartRss = router.StartRss,
                    };
                }

                if (options.Connect is { } connect)
                {
                    var probe = options.RouterPid is { } pid ? new ProcessProbe(pid) : null;
                    var providerNode = options.ProviderConnect is { } node ? $" (providers on {node.Host}:{node.Port})" : string.Empty;
                    return new LoadTarget(implementation, connect, $"{connect.Host}:{connect.Port}{providerNode}")
                    {
                        ProviderEndPoint = (EndPoint?)options.ProviderConnect ?? connect,
                        Probe = probe,
                        ProcessCommand = probe is null ? null : $"pid {probe.Pid}",
                        ProcessRuntime = probe?.Runtime(),
                        StartRss = probe?.Rss() ?? 0,
                    };
                }

                var host = await RouterHost.StartAsync(options, cancellationToken).ConfigureAwait(false);
                return new LoadTarget(implementation, host.EndPoint, "in-process") { _host = host };
        }
    }

    /// <summary>The in-process router's counters, or null.</summary>
    public RouterReport? RouterStats()
    {
        if (_host?.Router.GetStats() is not { } stats)
        {
            return null;
        }

        return new RouterReport
        {
            CallsRouted = stats.CallsRouted,
            ServerCalls = stats.ServerCalls,
            MessagesIn = stats.MessagesIn,
            MessagesOut = stats.MessagesOut,
            BytesIn = stats.BytesIn,
            BytesOut = stats.BytesOut,
            Errors = stats.Errors,
            AnswersDropped = stats.AnswersDropped,
        };
    }

    /// <summary>Why the server process is gone, or null while it runs.</summary>
    public string? ProcessFailure => _process is { HasExited: true } process ? $"the server process exited during the run:{Environment.NewLine}{process.LastLines()}" : null;

    public async ValueTask DisposeAsync()
    {
        if (_host is not null)
        {
            await _host.DisposeAsync().ConfigureAwait(false);
        }

        if (_process is not null)
        {
            await _process.DisposeAsync().ConfigureAwait(false);
        }

        if (_streamJsonRpc is not null)
        {
            await _streamJsonRpc.DisposeAsync().ConfigureAwait(false);
        }
    }

    /// <summary>The router process over a case that measured <paramref name="window"/> and took <paramref name="cpu"/> of its CPU.</summary>
    public Report.ServerProcessReport DescribeProcess(ProcessProbe probe, TimeSpan cpu, TimeSpan window) => new()
    {
        Command = ProcessCommand ?? $"pid {probe.Pid}",
        Runtime = ProcessRuntime ?? "unknown",
        Gc = probe.GcMode(),
        CpuSeconds = Math.Round(cpu.TotalSeconds, 2),
        CpuPercent = Math.Round(cpu.TotalSeconds / (window.TotalSeconds * Environment.ProcessorCount) * 100, 1),
        TotalCpuSeconds = Math.Round(probe.CpuTime().TotalSeconds, 2),
        StartRssMb = LoadRunner.Megabytes(StartRss),
        EndRssMb = LoadRunner.Megabytes(probe.Rss()),
        PeakRssMb = LoadRunner.Megabytes(probe.PeakRss()),
    };

    /// <summary>
    /// The router process a single-router case measures (the stalled client, the hostile connections): closed-loop
    /// callers, set up within 90 s; throws when there is no process to measure.
    /// </summary>
    public static async Task<(LoadTarget Target, ProcessProbe Probe)> StartProcessCaseAsync(LoadOptions options, string caseName, CancellationToken cancellationToken)
    {
        using var setup = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        setup.CancelAfter(TimeSpan.FromSeconds(90));
        var target = await StartAsync(options, Implementations.Ours, setup.Token).ConfigureAwait(false);
        if (target.Probe is not { } probe)
        {
            await target.DisposeAsync().ConfigureAwait(false);
            throw new InvalidOperationException($"The {caseName} case needs the router's process (--router, or --connect with --router-pid).");
        }

        return (target, probe);
    }
}

