using System.Runtime.CompilerServices;
using System.Text.Json.Serialization;
using Ours = JsonRpc.Contracts;
using Theirs = StreamJsonRpc;

namespace JsonRpc.Interop.Tests.Contracts;

/// <summary>
/// One interface that both stacks make proxies and targets of: ours through the generated code ([JsonRpcContract]),
/// StreamJsonRpc through its own (Attach, AddLocalRpcTarget), each marked with its own attribute, as a user who moves
/// from one to the other would have it. The wire names are given to both.
/// </summary>
// StreamJsonRpc0008 asks for PolyType's [GenerateShape], which only its NerdbankMessagePack formatter uses; the peers
// here use its System.Text.Json and Newtonsoft.Json formatters.
#pragma warning disable StreamJsonRpc0008
[Ours.JsonRpcContract(typeof(InteropJson))]
[Theirs.JsonRpcContract]
public partial interface IInteropCalculator
#pragma warning restore StreamJsonRpc0008
{
    [Ours.JsonRpcMethod("calc.add")]
    [Theirs.JsonRpcMethod("calc.add")]
    Task<int> AddAsync(int a, int b, CancellationToken cancellationToken);

    Task<string> ConcatAsync(string left, string right);

    Task NoteAsync(string text);

    ValueTask<int> CountAsync(int to, IProgress<int> progress, CancellationToken cancellationToken);

    IAsyncEnumerable<int> RangeAsync(int count, CancellationToken cancellationToken);

    Task<int> WaitForCancelAsync(CancellationToken cancellationToken);
}

[JsonSerializable(typeof(int))]
[JsonSerializable(typeof(string))]
public sealed partial class InteropJson : JsonSerializerContext;

/// <summary>The implementation both stacks serve.</summary>
public sealed class InteropCalculator : IInteropCalculator
{
    private readonly TaskCompletionSource _waiting = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _cancelled = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource<string> _noted = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public Task Waiting => _waiting.Task;

    public Task Cancelled => _cancelled.Task;

    public Task<string> Noted => _noted.Task;

    public Task<int> AddAsync(int a, int b, CancellationToken cancellationToken) => Task.FromResult(a + b);

    public Task<string> ConcatAsync(string left, string right) => Task.FromResult(left + right);

    public Task NoteAsync(string text)
    {
        _noted.TrySetResult(text);
        return Task.CompletedTask;
    }

    public async ValueTask<int> CountAsync(int to, IProgress<int> progress, CancellationToken cancellationToken)
    {
        for (var i = 1; i <= to; i++)
        {
            progress.Report(i * 10);
            await Task.Yield();
        }

        return to;
    }

    /// <summary>Completes when an enumeration of <see cref="RangeAsync"/> ends (its enumerator disposed): true when its token was cancelled.</summary>
    public Task<bool> RangeEnded => _rangeEnded.Task;

    private readonly TaskCompletionSource<bool> _rangeEnded = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public async IAsyncEnumerable<int> RangeAsync(int count, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        try
        {
            for (var i = 0; i < count; i++)
            {
                await Task.Yield();
                yield return i;
            }
        }
        finally
        {
            _rangeEnded.TrySetResult(cancellationToken.IsCancellationRequested);
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
}
