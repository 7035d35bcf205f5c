using System.Buffers;

namespace JsonRpc.Client.Internal;

/// <summary>
/// Appends the result's bytes, as received, to the caller's writer: no array is made for the result (the read loop
/// copies it into the call's pooled buffer, this copies it on into the writer). Not checked again: the read loop read the
/// whole answer strictly.
/// </summary>
internal readonly struct BufferWriterResult(IBufferWriter<byte> writer) : IResultReader<int>
{
    /// <summary>
    /// The most asked of the writer at a time: a large result goes in pieces, so that a writer with segments (a
    /// <c>PipeWriter</c>) is not asked for one span the size of the whole result.
    /// </summary>
    private const int Chunk = 64 * 1024;

    public int Read(PendingCall call)
    {
        var payload = call.Payload;
        var length = payload.Length;
        while (!payload.IsEmpty)
        {
            var span = writer.GetSpan(Math.Min(payload.Length, Chunk));
            var count = Math.Min(span.Length, payload.Length);
            payload[..count].CopyTo(span);
            writer.Advance(count);
            payload = payload[count..];
        }

        return length;
    }
}
