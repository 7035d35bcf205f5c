namespace JsonRpc.Benchmarks.Messages;

/// <summary>Which of the four message kinds a benchmark case reads or writes.</summary>
public enum SampleKind
{
    Request,
    Notification,
    Response,
    Error,
}
