using System.Buffers;

namespace JsonRpc.Client.Internal;

/// <summary>
/// Appends the result's bytes, as received, to the caller's writer: no array is made for the result (the read loop
/// copies it into the call's pooled buffer, this copies it on into the writer). Not checked again: the read loop read the
/// whole answer strictly.
/// </summary>
internal readonly struct BufferWriterResult(IBufferWriter<byte> writer) : IResultReader<int>
{
    public int Read(PendingCall call)
    {
        var payload = call.Payload;
        payload.CopyTo(writer.GetSpan(payload.Length));
        writer.Advance(payload.Length);
        return payload.Length;
    }
}
