using JsonRpc.Protocol;

namespace JsonRpc.Client.Internal;

/// <summary>
/// Keeps the result as JSON, in a copy of its own. Not checked again: the read loop read the whole answer strictly
/// (a result that is not valid JSON, or holds a duplicate member name, fails the call instead).
/// </summary>
internal readonly struct RawResult : IResultReader<RawJson>
{
    public static bool KeepsPayload => true;

    /// <summary>The result's own array when the read loop made one for it (a large result), else a copy.</summary>
    public RawJson Read(PendingCall call) => RawJson.FromTrustedUtf8(call.TakePayload());
}
