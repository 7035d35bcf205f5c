using System.Globalization;
using System.Net;

namespace JsonRpc.LoadTest;

/// <summary>One load run's settings, parsed from the command line (see <see cref="Usage"/>).</summary>
public sealed class LoadOptions
{
    /// <summary>The command line help.</summary>
    public const string Usage = """
        JSON-RPC router load generator.

        Usage: dotnet run -c Release --project benchmarks/JsonRpc.LoadTest -- [options]

          --mode closed|pipelined   closed: one call in flight per connection (muRPC's perf_test);
                                    pipelined: --window calls in flight per connection      [closed]
          --window W                calls in flight per connection when pipelined            [64]
          --connections N           caller connections                                       [10]
          --payload BYTES           echoed payload: a string of BYTES ASCII characters       [50]
          --duration SECONDS        measured time                                            [10]
          --warmup SECONDS          unmeasured time before it (JIT tiering settles)          [5]
          --grace SECONDS           time after the measured window to collect late answers   [10]
          --direct                  the router serves `echo` itself (a host method): no second hop
          --providers P             echo provider connections (routed mode)                  [1]
          --caller raw|client|both  raw: this tool's minimal socket caller (the least client-side cost);
                                    client: JsonRpcClient (what applications see); both: a run each [both]
          --provider client|raw     the echo provider: JsonRpcClient or a minimal socket one  [client]
          --inline-io               this process's sockets complete on the thread that saw them ready
                                    (DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1, for every caller and
                                    provider of every system run, ours and the peer's; with --router or
                                    --connect); the servers it starts do not inherit it. Off: .NET's
                                    default, each completion handed to the thread pool
          --connect HOST:PORT       load a running router instead of an in-process one; given twice
                                    (--connect A --connect B), callers go to A and providers to B: two
                                    nodes of a cluster, every call crossing between them
                                    (with --direct, that router must serve `echo` itself)
          --router PATH             start the standalone router (src/JsonRpc.Router: its executable, a native
                                    AOT build, or JsonRpc.Router.dll run with `dotnet`) as a process of its own,
                                    a fresh one for every run, and report its CPU time and peak RSS
          --router-env NAME=VALUE   an environment variable for the --router process (repeatable), e.g.
                                    DOTNET_gcServer=0
          --token TOKEN             callers and providers authenticate with it (a router given a security
                                    configuration, e.g. --router-env JsonRpcRouter__SecurityFile=rules.json)
          --security-file PATH      the --router process gets --security_file PATH (identities, permissions,
                                    quotas; see src/JsonRpc.Server/README.md)
          --router-pid PID          with --connect: the router's process, for its CPU time and RSS
          --peer none|streamjsonrpc|nats
                                    also run a peer on the same workload, in the same invocation:
                                    streamjsonrpc: a StreamJsonRpc server in this process (with --direct);
                                    nats: nats-server, NATS.Net callers, a queue-group echo responder (routed) [none]
          --nats-url URL            with --peer nats: a running nats-server instead of one started from PATH
          --stalled-client          instead of the workload: one connection that sends calls and never reads
                                    its answers, against a --router process; reports the router's RSS before
                                    and at its peak, and whether (and when) the router dropped the connection
          --stalled-method NAME     the method the stalled client calls: echo (routed to the provider) or one
                                    the router answers itself, e.g. keepAlive or an unknown name     [echo]
          --streaming               instead of the workload: async enumerables (each caller enumerates
                                    `values`, --stream-length ints a stream, one stream after another),
                                    through the router against the same peers connected directly, prefetch
                                    off and on; reports values per second and, with a --router process, its
                                    CPU us and syscalls per value and per batch (call or pull)
          --streaming-stack S       the peers of --streaming: streamjsonrpc (StreamJsonRpc callers and
                                    generator), ours (JsonRpcClient callers, a JsonRpcDispatcher
                                    generator) or both, one after the other                        [both]
          --stream-length L         values per stream with --streaming                          [1000]
          --prefetch P              with --streaming, the prefetched run: the first P values in the answer
                                    and up to P read ahead by the generator (StreamJsonRpc's settings) [64]
          --hostile KINDS           instead of the workload: innocent closed-loop callers alone, then beside
                                    hostile connections of these kinds (non-reading, batch-holding, slowloris,
                                    oversize, deep-nesting, or all), against a --router process; reports the
                                    router's RSS rise over idle and the throughput the innocent callers kept
          --hostile-count N         hostile connections at once, the kinds taken in turn            [1]
          --flood-token TOKEN       instead of the workload: the noisy neighbour. Against one router process
                                    (--router with --security-file), the measured callers (raw, --token,
                                    --connections, --mode) run alone and then beside --flood-connections
                                    connections authenticated with TOKEN that call `echo` as fast as they
                                    are answered (--flood-window in flight each, never retrying), for
                                    --rounds rounds; reports each phase's calls/s, p50/p99, the ratio with
                                    over without, the flood's refusals (-32015) per second and the router's
                                    CPU per call
          --flood-connections N     flood connections                                           [4]
          --flood-window W          calls in flight per flood connection                        [64]
          --rounds R                rounds of the noisy-neighbour case (alone, then flooded)    [3]
          --soak SECONDS            the soak with faults (see README): a two-node cluster of --router processes
                                    on a nats-server, calls, batches, events and cancellations for SECONDS while
                                    providers, a node, nats-server and hostile connections come and go
          --soak-out FOLDER         where the soak writes soak.json, samples.csv and its plots       [soak]
          --soak-settle SECONDS     RSS "after warm-up" is the first whole round of faults starting after this
                                    [a sixth of the soak]
          --json PATH               also write the report as JSON
          --plot PATH.png           run the connection sweep (closed loop, --sweep counts) and plot
                                    calls/s and p99 against connections; writes PATH.png and PATH.json
          --sweep 1,10,100          connection counts for --plot                              [1,10,100]
          --from PATH.json          with --plot: draw the plot from a report written earlier, run nothing
          --table FOLDER            print a markdown table of every report in FOLDER, run nothing; with
                                    --plot PATH.png also draw ours against the peers, a panel per report
          --help                    this text

        Everything stops by itself after warmup + duration + grace. The exit code is 0 when every call got
        exactly one correct answer, 1 when the correctness check failed, 2 for bad arguments, 3 when there was nothing
        to measure (the router could not be reached or started, a file could not be read or written).
        """;

    /// <summary>Closed loop or pipelined.</summary>
    public LoadMode Mode { get; set; } = LoadMode.Closed;

    /// <summary>Calls in flight per connection when pipelined (1 when closed).</summary>
    public int Window { get; set; } = 64;

    /// <summary>Caller connections.</summary>
    public int Connections { get; set; } = 10;

    /// <summary>Characters in the echoed string.</summary>
    public int PayloadBytes { get; set; } = 50;

    /// <summary>The measured time.</summary>
    public TimeSpan Duration { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Unmeasured time before the measured window (connections and JIT settle).</summary>
    public TimeSpan Warmup { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>How long after the measured window late answers are still collected before the run is cut off.</summary>
    public TimeSpan Grace { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>The router serves <c>echo</c> itself.</summary>
    public bool Direct { get; set; }

    /// <summary>Echo provider connections in routed mode.</summary>
    public int Providers { get; set; } = 1;

    /// <summary>
    /// This process's socket completions run on the socket engine's thread instead of the thread pool (see
    /// <see cref="Engine.InlineSocketCompletions"/>); set before the first socket, so for the whole process.
    /// </summary>
    public bool InlineIo { get; set; }

    /// <summary>Which caller implementation(s) to run.</summary>
    public CallerChoice Caller { get; set; } = CallerChoice.Both;

    /// <summary>Which echo provider implementation to run.</summary>
    public ClientKind Provider { get; set; } = ClientKind.Client;

    /// <summary>A running router to load instead of an in-process one.</summary>
    public DnsEndPoint? Connect { get; set; }

    /// <summary>Where the echo providers connect when not to <see cref="Connect"/> (a second cluster node).</summary>
    public DnsEndPoint? ProviderConnect { get; set; }

    /// <summary>The standalone router to start as its own process for every run (an executable or a .dll).</summary>
    public string? RouterPath { get; set; }

    /// <summary>Environment variables for the router process (NAME=VALUE).</summary>
    public List<string> RouterEnvironment { get; set; } = [];

    /// <summary>With <see cref="Connect"/>: the router's process id, for its CPU time and RSS.</summary>
    public int? RouterPid { get; set; }

    /// <summary>The token callers and providers authenticate with (<c>--token</c>), for a router with a security configuration.</summary>
    public string? Token { get; set; }

    /// <summary>The security file the router process is started with (<c>--security_file</c>), or null.</summary>
    public string? SecurityFile { get; set; }

    /// <summary>The noisy neighbour's token (<c>--flood-token</c>); null to not run that case.</summary>
    public string? FloodToken { get; set; }

    /// <summary>The noisy neighbour's connections.</summary>
    public int FloodConnections { get; set; } = 4;

    /// <summary>Calls in flight per flood connection.</summary>
    public int FloodWindow { get; set; } = 64;

    /// <summary>Rounds of the noisy-neighbour case.</summary>
    public int Rounds { get; set; } = 3;

    /// <summary>A peer to run on the same workload after ours.</summary>
    public Peer Peer { get; set; }

    /// <summary>A running nats-server for <see cref="Peer.Nats"/>; null to start one from PATH for every run.</summary>
    public string? NatsUrl { get; set; }

    /// <summary>Run the stalled-client case instead of the workload.</summary>
    public bool StalledClient { get; set; }

    /// <summary>The method the stalled client calls.</summary>
    public string StalledMethod { get; set; } = "echo";

    /// <summary>Run the streaming case instead of the workload.</summary>
    public bool Streaming { get; set; }

    /// <summary>Values per stream in the streaming case.</summary>
    public int StreamLength { get; set; } = 1000;

    /// <summary>The peers the streaming case runs, in turn.</summary>
    public IReadOnlyList<StreamingStack> StreamingStacks { get; set; } = [StreamingStack.StreamJsonRpc, StreamingStack.Ours];

    /// <summary>The prefetch (and read-ahead) of the streaming case's prefetched run.</summary>
    public int Prefetch { get; set; } = 64;

    /// <summary>The kinds of hostile connection for the hostile case (<c>--hostile</c>); null to not run it.</summary>
    public IReadOnlyList<Engine.HostileKind>? Hostile { get; set; }

    /// <summary>The kinds of hostile connection, taken in turn; all of them when <see cref="Hostile"/> is not given.</summary>
    public IReadOnlyList<Engine.HostileKind> HostileKinds => Hostile ?? Enum.GetValues<Engine.HostileKind>();

    /// <summary>Hostile connections at once.</summary>
    public int HostileCount { get; set; } = 1;

    /// <summary>The soak's length (<c>--soak</c>); null to not run it.</summary>
    public TimeSpan? Soak { get; set; }

    /// <summary>
    /// From when the soak's RSS baseline is taken (<c>--soak-settle</c>): the first whole round of faults that starts
    /// after it; null for a sixth of the soak.
    /// </summary>
    public TimeSpan? SoakSettle { get; set; }

    /// <summary>The folder the soak writes its report, samples and plots to.</summary>
    public string SoakOutput { get; set; } = "soak";

    /// <summary>Where to write the JSON report.</summary>
    public string? JsonPath { get; set; }

    /// <summary>Where to write the connection sweep's plot.</summary>
    public string? PlotPath { get; set; }

    /// <summary>A report to plot instead of running the sweep.</summary>
    public string? PlotFrom { get; set; }

    /// <summary>A folder of reports to print as a markdown table instead of running.</summary>
    public string? TableFolder { get; set; }

    /// <summary>Connection counts for the sweep.</summary>
    public int[] Sweep { get; set; } = [1, 10, 100];

    /// <summary>Calls in flight per connection for this mode.</summary>
    public int EffectiveWindow => Mode == LoadMode.Closed ? 1 : Window;

    /// <summary>A copy, for runs that vary one setting.</summary>
    public LoadOptions Clone()
    {
        var copy = (LoadOptions)MemberwiseClone();
        copy.RouterEnvironment = [.. RouterEnvironment];
        return copy;
    }

    /// <summary>Parses the command line; throws <see cref="ArgumentException"/> with a clear message on bad input.</summary>
    public static LoadOptions Parse(IReadOnlyList<string> args)
    {
        var options = new LoadOptions();
        var windowGiven = false;
        var floodGiven = false;
        for (var i = 0; i < args.Count; i++)
        {
            var name = args[i];
            switch (name)
            {
                case "--direct":
                    options.Direct = true;
                    continue;
                case "--stalled-client":
                    options.StalledClient = true;
                    continue;
                case "--streaming":
                    options.Streaming = true;
                    continue;
                case "--inline-io":
                    options.InlineIo = true;
                    continue;
                case "--help" or "-h":
                    throw new HelpRequestedException();
            }

            var value = i + 1 < args.Count ? args[++i] : throw new ArgumentException($"{name} needs a value.");
            switch (name)
            {
                case "--mode":
                    options.Mode = value switch
                    {
                        "closed" => LoadMode.Closed,
                        "pipelined" => LoadMode.Pipelined,
                        _ => throw new ArgumentException($"--mode is closed or pipelined, not '{value}'."),
                    };
                    break;
                case "--window":
                    options.Window = Int(name, value, 1, 65_536);
                    windowGiven = true;
                    break;
                case "--stream-length":
                    options.StreamLength = Int(name, value, 1, 100_000_000);
                    break;
                case "--streaming-stack":
                    options.StreamingStacks = value switch
                    {
                        "streamjsonrpc" => [StreamingStack.StreamJsonRpc],
                        "ours" => [StreamingStack.Ours],
                        "both" => [StreamingStack.StreamJsonRpc, StreamingStack.Ours],
                        _ => throw new ArgumentException($"--streaming-stack is streamjsonrpc, ours or both, not '{value}'."),
                    };
                    break;
                case "--prefetch":
                    options.Prefetch = Int(name, value, 1, 100_000);
                    break;
                case "--connections":
                    options.Connections = Int(name, value, 1, 10_000);
                    break;
                case "--payload":
                    options.PayloadBytes = Int(name, value, 1, 64 * 1024 * 1024);
                    break;
                case "--duration":
                    options.Duration = Seconds(name, value, 0.1);
                    break;
                case "--warmup":
                    options.Warmup = Seconds(name, value, 0);
                    break;
                case "--grace":
                    options.Grace = Seconds(name, value, 0.1);
                    break;
                case "--providers":
                    options.Providers = Int(name, value, 1, 1000);
                    break;
                case "--caller":
                    options.Caller = value switch
                    {
                        "raw" => CallerChoice.Raw,
                        "client" => CallerChoice.Client,
                        "both" => CallerChoice.Both,
                        _ => throw new ArgumentException($"--caller is raw, client or both, not '{value}'."),
                    };
                    break;
                case "--provider":
                    options.Provider = value switch
                    {
                        "raw" => ClientKind.Raw,
                        "client" => ClientKind.Client,
                        _ => throw new ArgumentException($"--provider is raw or client, not '{value}'."),
                    };
                    break;
                case "--connect" when options.Connect is null:
                    options.Connect = EndPoint(value);
                    break;
                case "--connect" when options.ProviderConnect is null:
                    options.ProviderConnect = EndPoint(value);
                    break;
                case "--connect":
                    throw new ArgumentException("--connect is given once (one router) or twice (callers' node, providers' node).");
                case "--router":
                    options.RouterPath = value;
                    break;
                case "--router-env":
                    options.RouterEnvironment.Add(value.IndexOf('=', StringComparison.Ordinal) > 0
                        ? value
                        : throw new ArgumentException($"--router-env is NAME=VALUE, not '{value}'."));
                    break;
                case "--token":
                    options.Token = value;
                    break;
                case "--security-file":
                    options.SecurityFile = value;
                    break;
                case "--flood-token":
                    options.FloodToken = value;
                    break;
                case "--flood-connections":
                    options.FloodConnections = Int(name, value, 1, 1000);
                    floodGiven = true;
                    break;
                case "--flood-window":
                    options.FloodWindow = Int(name, value, 1, 65_536);
                    floodGiven = true;
                    break;
                case "--rounds":
                    options.Rounds = Int(name, value, 1, 100);
                    floodGiven = true;
                    break;
                case "--router-pid":
                    options.RouterPid = Int(name, value, 1, int.MaxValue);
                    break;
                case "--peer":
                    options.Peer = value switch
                    {
                        "none" => Peer.None,
                        "streamjsonrpc" => Peer.StreamJsonRpc,
                        "nats" => Peer.Nats,
                        _ => throw new ArgumentException($"--peer is none, streamjsonrpc or nats, not '{value}'."),
                    };
                    break;
                case "--nats-url":
                    options.NatsUrl = Uri.TryCreate(value, UriKind.Absolute, out _)
                        ? value
                        : throw new ArgumentException($"--nats-url is a URL such as nats://127.0.0.1:4222, not '{value}'.");
                    break;
                case "--stalled-method":
                    options.StalledMethod = value.Length > 0 && value.All(c => char.IsAsciiLetterOrDigit(c) || c is '_' or '.' or '/' or '-')
                        ? value
                        : throw new ArgumentException($"--stalled-method is a method name of letters, digits, '_', '.', '/' or '-', not '{value}'.");
                    break;
                case "--hostile":
                    options.Hostile = Engine.HostileClient.ParseKinds(value);
                    break;
                case "--hostile-count":
                    options.HostileCount = Int(name, value, 1, 64);
                    break;
                case "--soak":
                    options.Soak = double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var soak) && soak >= 30 && soak <= 7 * 86_400
                        ? TimeSpan.FromSeconds(soak)
                        : throw new ArgumentException($"--soak is a number of seconds from 30 to a week, not '{value}'.");
                    break;
                case "--soak-out":
                    options.SoakOutput = value;
                    break;
                case "--soak-settle":
                    options.SoakSettle = Seconds(name, value, 0);
                    break;
                case "--json":
                    options.JsonPath = value;
                    break;
                case "--plot":
                    options.PlotPath = value;
                    break;
                case "--from":
                    options.PlotFrom = value;
                    break;
                case "--table":
                    options.TableFolder = value;
                    break;
                case "--sweep":
                    options.Sweep = [.. value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(v => Int(name, v, 1, 10_000))];
                    if (options.Sweep.Length == 0)
                    {
                        throw new ArgumentException("--sweep needs at least one connection count.");
                    }

                    break;
                default:
                    throw new ArgumentException($"Unknown option '{name}'. Try --help.");
            }
        }

        if (windowGiven && options.Mode == LoadMode.Closed && options.Window != 1)
        {
            throw new ArgumentException("--window applies to --mode pipelined; a closed loop has one call in flight.");
        }

        if (options.PlotFrom is not null && options.PlotPath is null && options.TableFolder is null)
        {
            throw new ArgumentException("--from goes with --plot.");
        }

        if (floodGiven && options.FloodToken is null)
        {
            throw new ArgumentException("--flood-connections, --flood-window and --rounds go with --flood-token.");
        }

        Check(options);

        return options;
    }

    private static void Check(LoadOptions options)
    {
        if (options.RouterPath is not null && options.Connect is not null)
        {
            throw new ArgumentException("--router starts a router and --connect loads a running one: give one of them.");
        }

        if (options.RouterPath is not null && options.Direct)
        {
            throw new ArgumentException("--router with --direct: the standalone router has no `echo` of its own; direct mode runs in-process.");
        }

        if (options.RouterPid is not null && options.Connect is null)
        {
            throw new ArgumentException("--router-pid goes with --connect.");
        }

        if (options.RouterEnvironment.Count > 0 && options.RouterPath is null)
        {
            throw new ArgumentException("--router-env goes with --router.");
        }

        if (options.InlineIo && (options.Direct || (options.RouterPath is null && options.Connect is null)))
        {
            throw new ArgumentException("--inline-io is the callers' setting: with a server in this process (no --router or --connect, or --direct) it would be the server's too; give --router PATH or --connect, without --direct.");
        }

        if (options.Peer == Peer.StreamJsonRpc && !options.Direct)
        {
            throw new ArgumentException("--peer streamjsonrpc goes with --direct: StreamJsonRpc serves calls itself, it has no router.");
        }

        if (options.Peer == Peer.Nats && options.Direct)
        {
            throw new ArgumentException("--peer nats goes with routed mode (no --direct): NATS request-reply is the peer of routing.");
        }

        if (options.NatsUrl is not null && options.Peer != Peer.Nats)
        {
            throw new ArgumentException("--nats-url goes with --peer nats.");
        }

        if ((options.Hostile is not null || options.Soak is not null) && options.RouterPath is null)
        {
            throw new ArgumentException($"{(options.Soak is not null ? "--soak" : "--hostile")} measures router processes it starts: give --router PATH.");
        }

        if (options.SecurityFile is not null && options.RouterPath is null)
        {
            throw new ArgumentException("--security-file goes with --router.");
        }

        if (options.FloodToken is not null && options.RouterPath is null && options.RouterPid is null)
        {
            throw new ArgumentException("--flood-token measures a router process: give --router PATH (or --connect with --router-pid).");
        }

        if (options.StalledClient && options.RouterPath is null && options.RouterPid is null)
        {
            throw new ArgumentException("--stalled-client measures a router process: give --router PATH (or --connect with --router-pid).");
        }
    }

    private static int Int(string name, string value, int min, int max)
        => int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out var n) && n >= min && n <= max
            ? n
            : throw new ArgumentException($"{name} is a whole number from {min} to {max}, not '{value}'.");

    private static TimeSpan Seconds(string name, string value, double min)
        => double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var s) && s >= min && s <= 3600
            ? TimeSpan.FromSeconds(s)
            : throw new ArgumentException($"{name} is a number of seconds from {min} to 3600, not '{value}'.");

    private static DnsEndPoint EndPoint(string value)
    {
        var colon = value.LastIndexOf(':');
        if (colon <= 0 || !int.TryParse(value.AsSpan(colon + 1), NumberStyles.None, CultureInfo.InvariantCulture, out var port) || port is < 1 or > 65_535)
        {
            throw new ArgumentException($"--connect is HOST:PORT, not '{value}'.");
        }

        return new DnsEndPoint(value[..colon].Trim('[', ']'), port);
    }
}
