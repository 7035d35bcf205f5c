using System.Text.Json;

namespace JsonRpc.Client.Internal;

/// <summary><c>{"name": value}</c>: the params of the router's built-in methods.</summary>
internal readonly struct NamedStringParams(JsonEncodedText name, string value) : IParamsSource
{
    public static readonly JsonEncodedText Name = JsonEncodedText.Encode(JsonRpc.Protocol.RouterWire.NameMember);
    public static readonly JsonEncodedText Method = JsonEncodedText.Encode(JsonRpc.Protocol.RouterWire.MethodMember);
    public static readonly JsonEncodedText Event = JsonEncodedText.Encode(JsonRpc.Protocol.RouterWire.EventMember);
    public static readonly JsonEncodedText Token = JsonEncodedText.Encode(JsonRpc.Protocol.RouterWire.TokenMember);

    public bool IsAbsent => false;

    public void WriteValue(Utf8JsonWriter writer)
    {
        writer.WriteStartObject();
        writer.WriteString(name, value);
        writer.WriteEndObject();
    }
}
