using System.ComponentModel;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace JsonRpc.Contracts;

/// <summary>
/// The base of a generated params converter (one per contract method). The dispatcher and the client call its
/// <see cref="JsonConverter{T}.Read"/> and <see cref="JsonConverter{T}.Write"/> directly, on a reader or writer of
/// their own, instead of entering the serializer for the params value (which costs more than reading two numbers):
/// such a converter reads and writes the whole value itself, never needs the serializer's state, and reports params
/// that do not fit with <see cref="JsonException"/>. Not for hand-written code.
/// </summary>
/// <typeparam name="TArgs">The generated params struct.</typeparam>
[EditorBrowsable(EditorBrowsableState.Never)]
public abstract class JsonRpcContractArgsConverter<TArgs> : JsonConverter<TArgs>
{
    /// <summary>Absent params reach <see cref="JsonConverter{T}.Read"/> as a JSON null (a method without params accepts it).</summary>
    public override bool HandleNull => true;

    /// <summary>Reads <paramref name="json"/> (a whole params value, or empty for none) with this converter alone.</summary>
    /// <exception cref="JsonException">The params do not fit the method.</exception>
    public TArgs ReadParams(ReadOnlySpan<byte> json, JsonSerializerOptions options)
    {
        var reader = new Utf8JsonReader(json.IsEmpty ? "null"u8 : json);
        reader.Read();
        return Read(ref reader, typeof(TArgs), options)!;
    }
}
