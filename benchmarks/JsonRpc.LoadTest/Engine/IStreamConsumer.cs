namespace JsonRpc.LoadTest.Engine;

/// <summary>One caller connection of the streaming case.</summary>
internal interface IStreamConsumer : IAsyncDisposable
{
    /// <summary>Calls <c>values(count)</c> and enumerates the stream it answers.</summary>
    IAsyncEnumerable<int> StreamAsync(int count, CancellationToken cancellationToken);
}
