using System.Text.Json;

namespace JsonRpc.Client.Internal;

/// <summary>Reads the token of <c>$/enumerator/next</c> or <c>$/enumerator/abort</c>: <c>[n]</c> or <c>{"token": n}</c>.</summary>
internal static class GeneratorToken
{
    public static bool TryRead(ReadOnlySpan<byte> @params, out long token)
    {
        token = 0;
        var reader = new Utf8JsonReader(@params);
        if (@params.IsEmpty || !reader.Read())
        {
            return false;
        }

        if (reader.TokenType == JsonTokenType.StartArray)
        {
            return reader.Read() && reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out token);
        }

        if (reader.TokenType != JsonTokenType.StartObject)
        {
            return false;
        }

        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var match = reader.ValueTextEquals("token"u8);
            reader.Read();
            if (match)
            {
                return reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out token);
            }

            reader.Skip();
        }

        return false;
    }
}
