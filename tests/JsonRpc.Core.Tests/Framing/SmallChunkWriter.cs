using System.Buffers;

namespace JsonRpc.Core.Tests.Framing;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> that hands out spans of just what was asked for (at least <c>chunkSize</c>), each
/// in fresh memory, like a pipe whose segments are small; it records the largest size asked for.
/// </summary>
internal sealed class SmallChunkWriter(int chunkSize) : IBufferWriter<byte>
{
    private readonly List<byte[]> _chunks = [];
    private byte[] _current = [];

    public int LargestSizeHint { get; private set; }

    public void Advance(int count)
    {
        Assert.InRange(count, 0, _current.Length);
        _chunks.Add(_current[..count]);
        _current = [];
    }

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        LargestSizeHint = Math.Max(LargestSizeHint, sizeHint);
        _current = new byte[Math.Max(sizeHint, chunkSize)];
        return _current;
    }

    public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;

    public byte[] ToArray() => [.. _chunks.SelectMany(chunk => chunk)];
}
