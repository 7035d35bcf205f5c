using System.Text.Json;

namespace JsonRpc.Client.Internal;

/// <summary><c>{"name": name, "token": token}</c>: the params of <c>register_client</c> (the token only when set).</summary>
internal readonly struct RegisterParams(string name, string? token) : IParamsSource
{
    private static readonly JsonEncodedText TokenName = JsonEncodedText.Encode(JsonRpc.Protocol.RouterWire.TokenMember);

    public bool IsAbsent => false;

    public void WriteValue(Utf8JsonWriter writer)
    {
        writer.WriteStartObject();
        writer.WriteString(NamedStringParams.Name, name);
        if (token is not null)
        {
            writer.WriteString(TokenName, token);
        }

        writer.WriteEndObject();
    }
}
