using System.Text.Json;

namespace JsonRpc.Client.Internal;

/// <summary><c>{"name": value}</c>: the params of the router's built-in methods.</summary>
internal readonly struct NamedStringParams(JsonEncodedText name, string value) : IParamsSource
{
    public static readonly JsonEncodedText Name = JsonEncodedText.Encode("name");
    public static readonly JsonEncodedText Method = JsonEncodedText.Encode("method");
    public static readonly JsonEncodedText Event = JsonEncodedText.Encode("event");
    public static readonly JsonEncodedText Token = JsonEncodedText.Encode("token");

    public bool IsAbsent => false;

    public void WriteValue(Utf8JsonWriter writer)
    {
        writer.WriteStartObject();
        writer.WriteString(name, value);
        writer.WriteEndObject();
    }
}
