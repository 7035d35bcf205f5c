using JsonRpc.Contracts;

namespace Calculator;

/// <summary>
/// The calculator's typed contract: the provider serves an implementation (<c>AddTarget</c>) and the caller calls it
/// through a generated proxy (<c>Attach</c>). <c>subtract</c> binds the spec's <c>[42, 23]</c> and
/// <c>{"minuend": 42, "subtrahend": 23}</c> alike.
/// </summary>
[JsonRpcContract(typeof(CalculatorJson))]
public interface ICalculator
{
    [JsonRpcMethod("subtract")]
    Task<int> SubtractAsync(int minuend, int subtrahend);
}

/// <summary>What the provider serves.</summary>
public sealed class Calculator : ICalculator
{
    public Task<int> SubtractAsync(int minuend, int subtrahend) => Task.FromResult(minuend - subtrahend);
}
