using System.Diagnostics;
using JsonRpc.Client;

namespace Calculator;

/// <summary>Runs the spec's subtract examples and add through the router, async and blocking, and checks each answer.</summary>
public static class CalculatorCaller
{
    /// <summary>Returns the number of wrong answers (0 when all is well).</summary>
    public static async Task<int> RunAsync(string host, int port, TextWriter output, CancellationToken cancellationToken = default)
    {
        var json = CalculatorJson.Default;
        await using var client = await JsonRpcClient.ConnectAsync(host, port, cancellationToken: cancellationToken);
        var wrong = 0;

        output.WriteLine("async calls:");
        wrong += Check(output, "subtract [42, 23]", 19, await client.CallAsync("subtract", 42, 23, json.Int32, json.Int32, json.Int32, cancellationToken));
        wrong += Check(output, "subtract [23, 42]", -19, await client.CallAsync("subtract", 23, 42, json.Int32, json.Int32, json.Int32, cancellationToken));
        wrong += Check(output, "subtract {subtrahend: 23, minuend: 42}", 19, await client.CallAsync("subtract", new SubtractArgs(42, 23), json.SubtractArgs, json.Int32, cancellationToken));
        wrong += Check(output, "add [1, 2, 4]", 7, await client.CallAsync("add", new[] { 1, 2, 4 }, json.Int32Array, json.Int32, cancellationToken));

        output.WriteLine("contract calls:");
        var calculator = client.Attach<ICalculator>();
        wrong += Check(output, "calculator.SubtractAsync(42, 23)", 19, await calculator.SubtractAsync(42, 23));
        var counted = new List<int>();
        await foreach (var value in calculator.CountAsync(1, 5, cancellationToken).WithCancellation(cancellationToken))
        {
            counted.Add(value);
        }

        wrong += Check(output, "calculator.CountAsync(1, 5)", "1 2 3 4 5", string.Join(' ', counted));
        var totals = new RunningTotals();
        var sum = await calculator.SumAsync([1, 2, 3, 4], totals, cancellationToken);
        wrong += Check(output, "calculator.SumAsync([1, 2, 3, 4]) reports", "1 3 6 10", totals.ToString());
        wrong += Check(output, "calculator.SumAsync([1, 2, 3, 4])", 10L, sum);

        output.WriteLine("blocking calls:");
        wrong += Check(output, "subtract [42, 23]", 19, client.Call("subtract", new[] { 42, 23 }, json.Int32Array, json.Int32, cancellationToken));
        wrong += Check(output, "subtract {minuend: 42, subtrahend: 23}", 19, client.Call("subtract", new SubtractArgs(42, 23), json.SubtractArgs, json.Int32, cancellationToken));
        wrong += Check(output, "add [10, 20, 30]", 60, client.Call("add", new[] { 10, 20, 30 }, json.Int32Array, json.Int32, cancellationToken));

        const int Rounds = 1000;
        var clock = Stopwatch.StartNew();
        var calls = new Task<int>[Rounds];
        for (var i = 0; i < Rounds; i++)
        {
            calls[i] = client.CallAsync("add", new[] { i, 1 }, json.Int32Array, json.Int32, cancellationToken).AsTask();
        }

        var results = await Task.WhenAll(calls);
        for (var i = 0; i < Rounds; i++)
        {
            wrong += results[i] == i + 1 ? 0 : 1;
        }

        output.WriteLine($"{Rounds} concurrent adds answered in {clock.Elapsed.TotalMilliseconds:F0} ms");
        output.WriteLine(wrong == 0 ? "all answers correct" : $"{wrong} wrong answers");
        return wrong;
    }

    private static int Check<T>(TextWriter output, string call, T expected, T actual)
        where T : IEquatable<T>
    {
        output.WriteLine($"  {call} = {actual}{(actual.Equals(expected) ? string.Empty : $"  WRONG, expected {expected}")}");
        return actual.Equals(expected) ? 0 : 1;
    }

    /// <summary>
    /// Keeps the running totals in the order they arrive: the client reports progress before it completes the call,
    /// so they are all here when the sum is (a <see cref="Progress{T}"/> would post them to the thread pool instead).
    /// </summary>
    private sealed class RunningTotals : IProgress<long>
    {
        private readonly List<long> _totals = [];

        public void Report(long value)
        {
            lock (_totals)
            {
                _totals.Add(value);
            }
        }

        public override string ToString()
        {
            lock (_totals)
            {
                return string.Join(' ', _totals);
            }
        }
    }
}
