using System.Runtime.CompilerServices;
using System.Text.Json.Serialization;
using JsonRpc.Contracts;

namespace JsonRpc.Client.Tests.Contracts;

/// <summary>A contract with every supported shape, served and called through the generated code.</summary>
[JsonRpcContract(typeof(CalculatorJson))]
public interface ICalculator
{
    Task<int> AddAsync(int a, int b, CancellationToken cancellationToken = default);

    [JsonRpcMethod("calc.subtract")]
    ValueTask<int> SubtractAsync(int minuend, int subtrahend);

    Task ResetAsync();

    ValueTask TouchAsync(string @event);

    Task<Position> MoveAsync(Position position, int dx, string? label);

    Task<int> CountAsync(int to, IProgress<int> progress, CancellationToken cancellationToken);

    IAsyncEnumerable<int> RangeAsync(int count, CancellationToken cancellationToken);

    IAsyncEnumerable<string> EndlessAsync();

    Task<int> WaitForCancelAsync(CancellationToken cancellationToken);

    ValueTask<int> FailAsync(string message);
}

/// <summary>A contract that extends another: the proxy and the target cover both.</summary>
[JsonRpcContract(typeof(CalculatorJson))]
public interface IScientificCalculator : ICalculator
{
    Task<double> SqrtAsync(double x);
}

public sealed record Position(int X, int Y, string? Label = null);

[JsonSerializable(typeof(int))]
[JsonSerializable(typeof(double))]
[JsonSerializable(typeof(string))]
[JsonSerializable(typeof(Position))]
public sealed partial class CalculatorJson : JsonSerializerContext;

/// <summary>The implementation served in the tests; records what it saw.</summary>
public sealed class Calculator : IScientificCalculator
{
    private readonly TaskCompletionSource _waiting = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _cancelled = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _endlessDisposed = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public int Resets;

    public string? LastEvent;

    public Task Waiting => _waiting.Task;

    public Task Cancelled => _cancelled.Task;

    public Task EndlessDisposed => _endlessDisposed.Task;

    public Task<int> AddAsync(int a, int b, CancellationToken cancellationToken = default) => Task.FromResult(a + b);

    public ValueTask<int> SubtractAsync(int minuend, int subtrahend) => new(minuend - subtrahend);

    public Task ResetAsync()
    {
        Interlocked.Increment(ref Resets);
        return Task.CompletedTask;
    }

    public ValueTask TouchAsync(string @event)
    {
        LastEvent = @event;
        return default;
    }

    public Task<Position> MoveAsync(Position position, int dx, string? label) => Task.FromResult(position with { X = position.X + dx, Label = label });

    public async Task<int> CountAsync(int to, IProgress<int> progress, CancellationToken cancellationToken)
    {
        for (var i = 1; i <= to; i++)
        {
            progress.Report(i);
            await Task.Yield();
        }

        return to;
    }

    public async IAsyncEnumerable<int> RangeAsync(int count, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        for (var i = 0; i < count; i++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            await Task.Yield();
            yield return i;
        }
    }

    public async IAsyncEnumerable<string> EndlessAsync()
    {
        try
        {
            for (var i = 0; ; i++)
            {
                await Task.Yield();
                yield return "v" + i;
            }
        }
        finally
        {
            _endlessDisposed.TrySetResult();
        }
    }

    public async Task<int> WaitForCancelAsync(CancellationToken cancellationToken)
    {
        _waiting.TrySetResult();
        try
        {
            await Task.Delay(Timeout.Infinite, cancellationToken);
            return 0;
        }
        catch (OperationCanceledException)
        {
            _cancelled.TrySetResult();
            throw;
        }
    }

    public ValueTask<int> FailAsync(string message) => throw new InvalidOperationException(message);

    public Task<double> SqrtAsync(double x) => Task.FromResult(Math.Sqrt(x));
}
