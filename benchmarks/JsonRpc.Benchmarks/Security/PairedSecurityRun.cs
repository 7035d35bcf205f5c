using System.Buffers;
using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace JsonRpc.Benchmarks.Security;

/// <summary>
/// The routed call of <see cref="SecuredRoutedCallBenchmarks"/>, measured as an A/B in one process: blocks of calls
/// on the router without security and on the router with the 100-rule policy alternate (A B B A …), so that a change in
/// the machine's background load falls on both alike, and each pair gives one ratio. BenchmarkDotNet runs each case in
/// a process of its own, minutes apart; on a VM whose two cores are shared with builds that spread is larger than the
/// 5% asked about, which pairing cancels. Run with <c>--paired-security [seconds] [calls...]</c>.
/// </summary>
internal static class PairedSecurityRun
{
    public static int Run(string[] args)
    {
        var seconds = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 60;
        var bursts = args.Length > 2 ? args.Skip(2).Select(a => int.Parse(a, CultureInfo.InvariantCulture)).ToArray() : [1, 32];
        var (open, openPipes) = SecuredRoutedCallBenchmarks.Start(security: null);
        var (secured, securedPipes) = SecuredRoutedCallBenchmarks.Start(SecurityBenchmarkPolicy.Create());
        try
        {
            Console.WriteLine($"# Paired A/B: routed call, no security (A) vs 100 rules, caller authenticated (B); {Environment.ProcessorCount} cores, .NET {Environment.Version}");
            Console.WriteLine();
            Console.WriteLine("| calls written at once | pairs | A: calls/s (median) | B: calls/s (median) | B/A time, median of pairs | 95% CI of the median | B/A time, mean of pairs | A: B/call | B: B/call |");
            Console.WriteLine("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            foreach (var calls in bursts)
            {
                Measure(calls, TimeSpan.FromSeconds(seconds), openPipes.Caller, securedPipes.Caller);
            }
        }
        finally
        {
            openPipes.Caller.Complete();
            openPipes.Provider.Complete();
            securedPipes.Caller.Complete();
            securedPipes.Provider.Complete();
            open.Dispose();
            secured.Dispose();
        }

        return 0;
    }

    private static void Measure(int calls, TimeSpan duration, RouterPipe a, RouterPipe b)
    {
        var input = new StringBuilder();
        for (var i = 1; i <= calls; i++)
        {
            input.Append("{\"jsonrpc\":\"2.0\",\"id\":").Append(i).Append(",\"method\":\"").Append(SecurityBenchmarkPolicy.RoutedMethod)
                .Append("\",\"params\":[1]}\n");
        }

        var bytes = Encoding.UTF8.GetBytes(input.ToString());
        var output = new ArrayBufferWriter<byte>(64 * 1024);

        // Warm both up, then size a block to about 20 ms.
        var warm = Stopwatch.StartNew();
        var ops = 0;
        while (warm.Elapsed < TimeSpan.FromSeconds(3))
        {
            Block(a, bytes, calls, output, 50);
            Block(b, bytes, calls, output, 50);
            ops += 100;
        }

        var perBlock = Math.Max(10, (int)(ops * 0.020 / warm.Elapsed.TotalSeconds));
        var ratios = new List<double>();
        var rateA = new List<double>();
        var rateB = new List<double>();
        long allocA = 0, allocB = 0, opsA = 0, opsB = 0;
        var clock = Stopwatch.StartNew();
        for (var pair = 0; clock.Elapsed < duration; pair++)
        {
            // A B, then B A: neither always goes first.
            var aFirst = pair % 2 == 0;
            var (ta, aa) = aFirst ? Block(a, bytes, calls, output, perBlock) : default;
            var (tb, ab) = Block(b, bytes, calls, output, perBlock);
            if (!aFirst)
            {
                (ta, aa) = Block(a, bytes, calls, output, perBlock);
            }

            ratios.Add(tb / ta);
            rateA.Add(perBlock * calls / ta);
            rateB.Add(perBlock * calls / tb);
            allocA += aa;
            allocB += ab;
            opsA += perBlock;
            opsB += perBlock;
        }

        var (low, high) = MedianConfidence(ratios);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"| {calls} | {ratios.Count} | {Median(rateA):N0} | {Median(rateB):N0} | {Median(ratios):F3} | {low:F3} to {high:F3} | {ratios.Average():F3} | {(double)allocA / (opsA * calls):F1} | {(double)allocB / (opsB * calls):F1} |"));
    }

    private static (double Seconds, long Allocated) Block(RouterPipe caller, byte[] input, int calls, ArrayBufferWriter<byte> output, int ops)
    {
        var before = GC.GetTotalAllocatedBytes(precise: true);
        var start = Stopwatch.GetTimestamp();
        for (var i = 0; i < ops; i++)
        {
            output.ResetWrittenCount();
            caller.Client.RoundTrip(input, calls, output);
        }

        var seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
        return (seconds, GC.GetTotalAllocatedBytes(precise: true) - before);
    }

    private static double Median(List<double> values)
    {
        var sorted = values.Order().ToArray();
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[sorted.Length / 2 - 1] + sorted[sorted.Length / 2]) / 2;
    }

    /// <summary>A distribution-free 95% confidence interval of the median: order statistics around n/2 ± 1.96·√n/2.</summary>
    private static (double Low, double High) MedianConfidence(List<double> values)
    {
        var sorted = values.Order().ToArray();
        var n = sorted.Length;
        var half = 1.96 * Math.Sqrt(n) / 2;
        var low = Math.Max(0, (int)Math.Floor(n / 2.0 - half));
        var high = Math.Min(n - 1, (int)Math.Ceiling(n / 2.0 + half));
        return (sorted[low], sorted[high]);
    }
}
