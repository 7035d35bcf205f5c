namespace JsonRpc.Cluster.Tests;

/// <summary>
/// The tests that listen to the tracing sources: a listener is process-wide, so while one runs, every router and
/// client in the process writes trace context into the bytes it sends. They run alone, not beside the tests that
/// check those bytes exactly.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class TracingCollection
{
    public const string Name = "Process-wide tracing listeners";
}
