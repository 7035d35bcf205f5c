using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Protocol;

namespace JsonRpc.Client.Internal;

/// <summary>
/// One batch of an async enumerable as StreamJsonRpc sends it: the answer that carries the enumerable
/// (<c>{"token": …, "values": […]}</c>, either member absent) or an answer to <c>$/enumerator/next</c>
/// (<c>{"values": […], "finished": bool}</c>).
/// </summary>
internal readonly struct StreamPage<T>
{
    private StreamPage(List<T> values, RawJson? token, bool finished)
    {
        Values = values;
        Token = token;
        Finished = finished;
    }

    public List<T> Values { get; }

    /// <summary>The params that name the enumerable to its generator, <c>[token]</c>; null when it was sent whole.</summary>
    public RawJson? Token { get; }

    public bool Finished { get; }

    /// <exception cref="InvalidDataException">Not such an object.</exception>
    public static StreamPage<T> Read(ReadOnlySpan<byte> json, JsonTypeInfo<T> itemType, bool initial)
    {
        var reader = new Utf8JsonReader(json);
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
        {
            throw new InvalidDataException(initial
                ? "The answer is not an async enumerable (an object with \"token\" and \"values\")."
                : "The answer to $/enumerator/next is not an object with \"values\" and \"finished\".");
        }

        var values = new List<T>();
        RawJson? token = null;
        var finished = false;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            if (reader.ValueTextEquals("values"u8))
            {
                reader.Read();
                if (reader.TokenType == JsonTokenType.StartArray)
                {
                    while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
                    {
                        values.Add(JsonSerializer.Deserialize(ref reader, itemType)!);
                    }
                }
                else if (reader.TokenType != JsonTokenType.Null)
                {
                    throw new InvalidDataException("\"values\" of an async enumerable must be an array.");
                }
            }
            else if (initial && reader.ValueTextEquals("token"u8))
            {
                reader.Read();
                var start = (int)reader.TokenStartIndex;
                reader.Skip();
                var raw = json[start..(int)reader.BytesConsumed];
                if (!raw.SequenceEqual("null"u8))
                {
                    var wrapped = new byte[raw.Length + 2];
                    wrapped[0] = (byte)'[';
                    raw.CopyTo(wrapped.AsSpan(1));
                    wrapped[^1] = (byte)']';
                    token = RawJson.FromUtf8(wrapped);
                }
            }
            else if (!initial && reader.ValueTextEquals("finished"u8))
            {
                reader.Read();
                finished = reader.TokenType == JsonTokenType.True;
            }
            else
            {
                reader.Read();
                reader.Skip();
            }
        }

        return new StreamPage<T>(values, token, finished);
    }
}
