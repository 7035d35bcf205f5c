namespace JsonRpc.LoadTest.Engine;

/// <summary>One caller connection: it sends until the measured window ends, then collects what is still in flight.</summary>
internal interface ICaller : IAsyncDisposable
{
    /// <summary>The connection's calls: one ledger per independent stream of ids.</summary>
    IReadOnlyList<CallLedger> Ledgers { get; }

    /// <summary>Runs until everything sent is answered after the measured window, or <paramref name="hardStop"/>.</summary>
    Task RunAsync(CancellationToken hardStop);
}
