using JsonRpc.Protocol;

namespace JsonRpc.Client.Internal;

/// <summary>
/// Keeps the result as JSON, in a copy of its own. Not checked again: the read loop read the whole answer strictly
/// (a result that is not valid JSON, or holds a duplicate member name, fails the call instead).
/// </summary>
internal readonly struct RawResult : IResultReader<RawJson>
{
    public RawJson Read(ReadOnlySpan<byte> result) => RawJson.FromTrustedUtf8(result.ToArray());
}
