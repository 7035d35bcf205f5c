using JsonRpc.Protocol;

namespace JsonRpc.Client.Internal;

/// <summary>Keeps the result as JSON, in a copy of its own.</summary>
internal readonly struct RawResult : IResultReader<RawJson>
{
    public RawJson Read(ReadOnlySpan<byte> result) => RawJson.FromUtf8(result.ToArray());
}
