using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text.Json;

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
