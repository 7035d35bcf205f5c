namespace JsonRpc.Interop.Tests.Infrastructure;

/// <summary>
/// A handler that runs until its token is cancelled and reports both moments, so tests can wait for the call to be
/// running and then for the cancellation to reach it, without sleeping.
/// </summary>
public sealed class SlowMethod
{
    private readonly TaskCompletionSource _started = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _cancelled = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Completes when the handler runs.</summary>
    public Task Started => _started.Task;

    /// <summary>Completes when the handler's token fires.</summary>
    public Task Cancelled => _cancelled.Task;

    /// <summary>The handler: waits (at most <see cref="Bounds.Forever"/>) for its token.</summary>
    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        _started.TrySetResult();
        try
        {
            await Task.Delay(Bounds.Forever, cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Not a registration on the token: one disposed as the delay ends could miss the cancellation it reports.
            _cancelled.TrySetResult();
            throw;
        }

        return -1;
    }
}
