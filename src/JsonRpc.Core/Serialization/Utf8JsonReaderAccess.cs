using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text.Json;
using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>
/// Reaches the input a <see cref="Utf8JsonReader"/> reads, so that a converter called by <see cref="JsonSerializer"/>
/// can keep params and results as the exact bytes sent without a second parse.
/// </summary>
/// <remarks>
/// <see cref="Utf8JsonReader"/> has no public way to get at the bytes behind a container token. Its private fields
/// are read with <see cref="UnsafeAccessorAttribute"/> (trimming and AOT safe). Should a future runtime rename them,
/// <see cref="IsAvailable"/> turns false and the converter falls back to a correct but slower path; a test pins the
/// fast path so such a change is noticed.
/// </remarks>
internal static class Utf8JsonReaderAccess
{
    public static bool IsAvailable { get; } = Probe();

    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_buffer")]
    public static extern ref ReadOnlySpan<byte> Buffer(ref Utf8JsonReader reader);

    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_sequence")]
    public static extern ref ReadOnlySequence<byte> Sequence(ref Utf8JsonReader reader);

    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_isMultiSegment")]
    public static extern ref bool IsMultiSegment(ref Utf8JsonReader reader);

    /// <summary>
    /// Copies the bytes of the value the reader is on and moves the reader to its last token. For the converters' rare
    /// paths (a multi-segment reader, lenient reader options, a runtime without the reader's fields) and for raw members.
    /// </summary>
    public static byte[] CopyValue(ref Utf8JsonReader reader)
    {
        if (IsAvailable)
        {
            var start = reader.TokenStartIndex;
            var end = reader;

            // The serializer buffers a whole value before it calls a converter, but the reader may not be on its final
            // block (an element of an array read from a pipe): Skip() would refuse that, TrySkip() does not.
            if (!end.TrySkip())
            {
                ThrowHelper.ThrowProtocol(JsonRpcErrorCodes.ParseError, "The JSON text ends inside a value.");
            }

            var length = end.BytesConsumed - start;
            var bytes = IsMultiSegment(ref reader)
                ? Sequence(ref reader).Slice(start, length).ToArray()
                : Buffer(ref reader).Slice(checked((int)start), checked((int)length)).ToArray();
            reader = end;
            return bytes;
        }

        using var document = JsonDocument.ParseValue(ref reader);
        return JsonMarshal.GetRawUtf8Value(document.RootElement).ToArray();
    }

    private static bool Probe()
    {
        try
        {
            ReadOnlySpan<byte> json = "[1]"u8;
            var reader = new Utf8JsonReader(json);
            return !IsMultiSegment(ref reader) && Buffer(ref reader).Length == 3 && Sequence(ref reader).IsEmpty;
        }
        catch (MissingMemberException)
        {
            return false;
        }
    }
}
