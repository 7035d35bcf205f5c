using System.Buffers;

namespace JsonRpc.Serialization;

/// <summary>Where cached <see cref="System.Text.Json.Utf8JsonWriter"/>s point between uses, so they hold no caller's buffer.</summary>
internal sealed class NullBufferWriter : IBufferWriter<byte>
{
    public static readonly NullBufferWriter Instance = new();

    public void Advance(int count)
    {
    }

    public Memory<byte> GetMemory(int sizeHint = 0) => Array.Empty<byte>();

    public Span<byte> GetSpan(int sizeHint = 0) => Array.Empty<byte>();
}
