using System.Globalization;

namespace JsonRpc.LoadTest.Report;

/// <summary>Prints reports as text for people.</summary>
public static class ReportPrinter
{
    /// <summary>The machine line: CPU, cores, OS, .NET, GC and load average.</summary>
    public static string MachineLine(MachineReport machine)
    {
        ArgumentNullException.ThrowIfNull(machine);
        var completions = machine.InlineSocketCompletions ? ", callers' socket completions inline" : string.Empty;
        return $"{machine.Cpu}, {machine.Cores} cores, {machine.Os}, {machine.Dotnet}, {machine.Gc} GC{completions}, load average {machine.LoadAverage}";
    }

    /// <summary>One block per run: throughput, latency, correctness, CPU; and the stalled-client case.</summary>
    public static void Print(LoadReport report, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(report);
        ArgumentNullException.ThrowIfNull(output);
        output.WriteLine();
        output.WriteLine($"Machine: {MachineLine(report.Machine)}");
        foreach (var run in report.Runs)
        {
            output.WriteLine();
            output.WriteLine($"{run.Label} ({run.Target}, {run.WarmupSeconds:0.#} s warm-up, {run.DurationSeconds:0.#} s measured)");
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  calls/s      {run.CallsPerSecond,12:N0}   ({run.Calls:N0} calls)"));
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  payload      {run.PayloadMbps,12:N1} Mbps (payload bytes x 8 / 10^6, one way)"));
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  latency us   p50 {run.Latency.P50Us:N1}   p99 {run.Latency.P99Us:N1}   p99.9 {run.Latency.P999Us:N1}   max {run.Latency.MaxUs:N1}   mean {run.Latency.MeanUs:N1}"));
            var c = run.Correctness;
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  correctness  {(c.Passed ? "PASS" : "FAIL")}: {c.CallsSent:N0} sent, {c.Answers:N0} answered, {c.Missing} missing, {c.Duplicates} duplicate, {c.Unexpected} unexpected, {c.Mismatches} wrong, {c.ErrorAnswers} errors, {c.FailedConnections} failed connections"));
            if (c.FirstProblem is not null)
            {
                output.WriteLine($"  first problem: {c.FirstProblem}");
            }

            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  cpu          this process {run.Cpu.ProcessPercent:N0}%, machine {run.Cpu.MachinePercent:N0}%, others {run.Cpu.OthersPercent:N0}% (of all cores), load {run.Cpu.LoadAverage:N2}"));
            if (run.ServerProcess is { } process)
            {
                output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"  server       {process.CpuSeconds:N2} s CPU in the window ({process.CpuPercent:N0}% of all cores), {process.TotalCpuSeconds:N2} s in all; RSS {process.StartRssMb:N1} MB at start, {process.EndRssMb:N1} MB at the end, peak {process.PeakRssMb:N1} MB"));
                output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"  per call     {(process.CpuUsPerCall is { } us ? $"{us:N2} us CPU" : "CPU unknown")}, {(process.SyscallsPerCall is { } perCall ? $"{perCall:N2} syscalls ({process.Syscalls:N0} in the window)" : $"syscalls unavailable: {process.SyscallsUnavailable}")}"));
                output.WriteLine($"               {process.Runtime}, {process.Gc} GC: {process.Command}");
            }

            if (run.Router is { } router)
            {
                output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"  router       {router.CallsRouted:N0} routed, {router.ServerCalls:N0} served itself, {router.MessagesIn:N0} in / {router.MessagesOut:N0} out, {router.Errors} errors, {router.AnswersDropped} dropped"));
            }
        }

        if (report.Streaming is { } streaming)
        {
            output.WriteLine();
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"Streaming: async enumerables of {streaming.StreamLength:N0} ints, {streaming.Connections} callers, router {streaming.Router}"));
            foreach (var run in streaming.Runs)
            {
                output.WriteLine(StreamingRun.Line(run));
            }

            if (streaming.RoutedShare is not null || streaming.RoutedSharePrefetch is not null)
            {
                output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"  streamjsonrpc router / direct: {streaming.RoutedShare:P0} prefetch off, {streaming.RoutedSharePrefetch:P0} prefetch on"));
            }

            if (streaming.OursRoutedShare is not null || streaming.OursRoutedSharePrefetch is not null)
            {
                output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"  ours router / direct: {streaming.OursRoutedShare:P0} prefetch off, {streaming.OursRoutedSharePrefetch:P0} prefetch on"));
            }
        }

        if (report.StalledClient is { } stalled)
        {
            output.WriteLine();
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"Stalled client ({stalled.PayloadBytes} B calls to {stalled.Method}, never reading): router RSS {stalled.BaselineRssMb:N1} MB before, peak {stalled.PeakRssMb:N1} MB, rise {stalled.RiseMb:N1} MB"));
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  {(stalled.Dropped ? $"dropped by the router after {stalled.Seconds:N2} s" : $"NOT dropped within {stalled.Seconds:N2} s")}, {stalled.CallsSent:N0} calls ({stalled.BytesSent / 1e6:N1} MB) written"));
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  well-behaved caller: {(stalled.OthersServed ? "PASS" : "FAIL")}, {stalled.OtherCalls:N0} calls{(stalled.Problem is null ? string.Empty : $"; {stalled.Problem}")}"));
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  router: {stalled.Router.CpuSeconds:N2} s CPU during the case, RSS {stalled.Router.StartRssMb:N1} MB at start; {stalled.Router.Command}"));
        }

        if (report.Hostile is { } hostile)
        {
            output.WriteLine();
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"Hostile connections ({hostile.Clients.Count}): router RSS {hostile.IdleRssMb:N1} MB idle, peak {hostile.PeakRssMb:N1} MB, rise {hostile.RiseMb:N1} MB (limit {hostile.RiseLimitMb:N1}) {(hostile.WithinMemoryTarget ? "PASS" : "FAIL")}"));
            foreach (var client in hostile.Clients)
            {
                output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"  {client.Kind,-14} {client.BytesSent / 1e6,8:N1} MB sent, dropped {client.Drops}x, {client.ErrorsReceived:N0} errors received"));
            }

            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  innocent callers: {hostile.BaselineCallsPerSecond:N0} calls/s alone, {hostile.HostileCallsPerSecond:N0} beside them: {hostile.ThroughputKept:P0} kept {(hostile.WithinThroughputTarget ? "PASS" : "FAIL")}"));
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  every innocent call answered once, correctly: {(hostile.InnocentServed ? "PASS" : "FAIL")} ({hostile.InnocentCalls:N0} calls){(hostile.Problem is null ? string.Empty : $"; {hostile.Problem}")}"));
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  router: {hostile.Router.CpuSeconds:N2} s CPU in the hostile phase, RSS {hostile.Router.StartRssMb:N1} MB at start; {hostile.Router.Command}"));
        }

        if (report.Neighbour is { } neighbour)
        {
            output.WriteLine();
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"Noisy neighbour: {neighbour.Connections} measured callers x {neighbour.Window} in flight beside a flood of {neighbour.FloodConnections} x {neighbour.FloodWindow} in flight, {neighbour.Rounds.Count} rounds of {neighbour.PhaseSeconds:0.#} s a phase"));
            foreach (var round in neighbour.Rounds)
            {
                output.WriteLine(Neighbour.NeighbourRun.Line(round));
            }

            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  measured calls/s with the flood over without, median of the rounds: {neighbour.MedianRatio:P1}"));
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  every measured call answered once, correctly, and every flood call once: {(neighbour.Problem is null ? "PASS" : "FAIL")} ({neighbour.MeasuredCalls:N0} measured calls, {neighbour.FloodCalls:N0} flood calls, {neighbour.FloodRefusals:N0} refused){(neighbour.Problem is null ? string.Empty : $"; {neighbour.Problem}")}"));
            output.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  router: {neighbour.Router.CpuSeconds:N2} s CPU over the case, peak RSS {neighbour.Router.PeakRssMb:N1} MB; {neighbour.Router.Command}"));
        }
    }
}
