namespace JsonRpc.Client.Internal;

/// <summary>For calls whose result nobody reads (keep-alive, the router's built-in methods): reads nothing, allocates nothing.</summary>
internal readonly struct IgnoredResult : IResultReader<bool>
{
    public bool Read(PendingCall call) => true;
}
