namespace JsonRpc.LoadTest.Engine;

/// <summary>The names of the servers a run can measure, as they appear in the reports.</summary>
internal static class Implementations
{
    public const string Ours = "ours";
    public const string StreamJsonRpc = "streamjsonrpc";
    public const string Nats = "nats";
}
