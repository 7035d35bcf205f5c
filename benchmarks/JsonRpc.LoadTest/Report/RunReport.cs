namespace JsonRpc.LoadTest.Report;

/// <summary>One workload against one router with one caller implementation.</summary>
public sealed record RunReport
{
    /// <summary>The settings in one line, e.g. "routed closed c=10 payload=50B caller=raw".</summary>
    public required string Label { get; init; }

    /// <summary>Whose server was measured: "ours" (the router), "streamjsonrpc" or "nats".</summary>
    public string Implementation { get; init; } = "ours";

    /// <summary>"raw" (this tool's minimal socket caller), "client" (JsonRpcClient) or "nats" (NATS.Net).</summary>
    public required string Caller { get; init; }

    /// <summary>"raw", "client", "nats" (a queue-group responder), or "none" in direct mode.</summary>
    public required string Provider { get; init; }

    /// <summary>"in-process" or the HOST:PORT of a running router.</summary>
    public required string Target { get; init; }

    /// <summary>"closed" or "pipelined".</summary>
    public required string Mode { get; init; }

    /// <summary>Calls in flight per connection.</summary>
    public int Window { get; init; }

    /// <summary>Caller connections.</summary>
    public int Connections { get; init; }

    /// <summary>Echo provider connections (0 in direct mode).</summary>
    public int Providers { get; init; }

    /// <summary>Characters in each echoed string.</summary>
    public int PayloadBytes { get; init; }

    /// <summary>Whether the router served echo itself.</summary>
    public bool Direct { get; init; }

    /// <summary>Unmeasured time before the window.</summary>
    public double WarmupSeconds { get; init; }

    /// <summary>The measured window.</summary>
    public double DurationSeconds { get; init; }

    /// <summary>Calls answered inside the measured window.</summary>
    public long Calls { get; init; }

    /// <summary>Calls / duration.</summary>
    public double CallsPerSecond { get; init; }

    /// <summary>Payload bytes x 8 / 10^6 per second, one way (as muRPC reports).</summary>
    public double PayloadMbps { get; init; }

    /// <summary>Round-trip latency of the measured calls.</summary>
    public required LatencyReport Latency { get; init; }

    /// <summary>Every problem seen: error answers, failed connections, unexpected, duplicate or wrong answers.</summary>
    public long Errors { get; init; }

    /// <summary>Whether every call got exactly one correct answer.</summary>
    public required CorrectnessReport Correctness { get; init; }

    /// <summary>CPU use during the measured window.</summary>
    public required CpuReport Cpu { get; init; }

    /// <summary>The in-process router's counters for this run; null for a router elsewhere.</summary>
    public RouterReport? Router { get; init; }

    /// <summary>The server's own process (standalone router or nats-server), when it ran apart from this tool.</summary>
    public ServerProcessReport? ServerProcess { get; init; }
}
