namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The readings of one measured window, begun at its start and ended at its end: this machine's CPU and, where the
/// server runs apart, its process's CPU time and its system calls (perf, <see cref="SyscallCounter"/>).
/// </summary>
internal sealed class MeasuredWindow
{
    private readonly ProcessProbe? _server;
    private readonly SyscallCounter? _syscalls;
    private readonly CpuSample _start;
    private readonly TimeSpan _serverStart;

    private MeasuredWindow(ProcessProbe? server)
    {
        _server = server;
        _syscalls = server is null ? null : SyscallCounter.Start(server.Pid);
        _start = SystemMetrics.SampleCpu();
        _serverStart = server?.CpuTime() ?? TimeSpan.Zero;
    }

    /// <summary>Takes the start readings now; <paramref name="server"/> is null where the server runs in this process.</summary>
    public static MeasuredWindow Begin(ProcessProbe? server) => new(server);

    /// <summary>Takes the end readings now and stops counting system calls.</summary>
    public async Task<CpuSamples> EndAsync()
    {
        var end = SystemMetrics.SampleCpu();
        var serverEnd = _server?.CpuTime() ?? TimeSpan.Zero;
        SyscallRate? rate = _syscalls is null ? null : await _syscalls.StopAsync().ConfigureAwait(false);
        return new CpuSamples(_start, end, _serverStart, serverEnd, _server?.Rss() ?? 0, rate);
    }
}
