using System.Text.Json;
using System.Text.Json.Nodes;

namespace JsonRpc.Client.Internal;

/// <summary>
/// <c>{"method": name, "description": {…}}</c>: the params of <c>register_method</c>, with the method's OpenRPC Method
/// Object as the dispatcher describes it (a router that does not know descriptions ignores the member).
/// </summary>
internal readonly struct RegisterMethodParams(string method, JsonObject? description) : IParamsSource
{
    private static readonly JsonEncodedText DescriptionName = JsonEncodedText.Encode(JsonRpc.Protocol.RouterWire.DescriptionMember);

    public bool IsAbsent => false;

    public void WriteValue(Utf8JsonWriter writer)
    {
        writer.WriteStartObject();
        writer.WriteString(NamedStringParams.Method, method);
        if (description is not null)
        {
            writer.WritePropertyName(DescriptionName);
            description.WriteTo(writer);
        }

        writer.WriteEndObject();
    }
}
