using System.Runtime.CompilerServices;
using JsonRpc.Contracts;

namespace Calculator;

/// <summary>
/// The calculator's typed contract: the provider serves an implementation (<c>AddTarget</c>) and the caller calls it
/// through a generated proxy (<c>Attach</c>): a plain call, a stream and a call with progress. <c>subtract</c> binds the spec's <c>[42, 23]</c> and
/// <c>{"minuend": 42, "subtrahend": 23}</c> alike.
/// </summary>
[JsonRpcContract(typeof(CalculatorJson))]
public interface ICalculator
{
    [JsonRpcMethod("subtract")]
    Task<int> SubtractAsync(int minuend, int subtrahend);

    /// <summary>The whole numbers from <paramref name="from"/> to <paramref name="to"/>, streamed one by one as they are made.</summary>
    [JsonRpcMethod("count")]
    IAsyncEnumerable<int> CountAsync(int from, int to, CancellationToken cancellationToken);

    /// <summary>The sum of <paramref name="values"/>, reporting each running total on the way.</summary>
    [JsonRpcMethod("sum")]
    Task<long> SumAsync(int[] values, IProgress<long> progress, CancellationToken cancellationToken);
}

/// <summary>What the provider serves.</summary>
public sealed class Calculator : ICalculator
{
    public Task<int> SubtractAsync(int minuend, int subtrahend) => Task.FromResult(minuend - subtrahend);

    public async IAsyncEnumerable<int> CountAsync(int from, int to, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        for (var value = from; value <= to; value++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            await Task.Yield();
            yield return value;
        }
    }

    public Task<long> SumAsync(int[] values, IProgress<long> progress, CancellationToken cancellationToken)
    {
        long total = 0;
        foreach (var value in values)
        {
            cancellationToken.ThrowIfCancellationRequested();
            total += value;
            progress?.Report(total);
        }

        return Task.FromResult(total);
    }
}
