using System.Text.Json;

namespace JsonRpc.Client.Internal;

/// <summary>Reads the token and the value of a progress notification whose token is one this client hands out (an integer).</summary>
internal static class ProgressReader
{
    /// <summary>
    /// <c>$/progress</c>: <c>[token, value]</c> or <c>{"token": …, "value": …}</c>, the value being the report;
    /// <c>notifications/progress</c> (<paramref name="mcp"/>): <c>{"progressToken": …, …}</c>, the params being the report.
    /// </summary>
    public static bool TryRead(ReadOnlySpan<byte> @params, bool mcp, out long token, out ReadOnlySpan<byte> value)
    {
        token = 0;
        value = default;
        var reader = new Utf8JsonReader(@params);
        if (!reader.Read())
        {
            return false;
        }

        if (reader.TokenType == JsonTokenType.StartArray && !mcp)
        {
            if (!reader.Read() || reader.TokenType != JsonTokenType.Number || !reader.TryGetInt64(out token) || !reader.Read()
                || reader.TokenType == JsonTokenType.EndArray)
            {
                return false;
            }

            value = @params[Value(ref reader)];
            return true;
        }

        if (reader.TokenType != JsonTokenType.StartObject)
        {
            return false;
        }

        var found = false;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            if (reader.ValueTextEquals(mcp ? "progressToken"u8 : "token"u8))
            {
                reader.Read();
                found = reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out token);
                if (!found)
                {
                    return false;
                }
            }
            else if (!mcp && reader.ValueTextEquals("value"u8))
            {
                reader.Read();
                value = @params[Value(ref reader)];
            }
            else
            {
                reader.Read();
                reader.Skip();
            }
        }

        if (mcp)
        {
            value = @params;
        }

        return found && !value.IsEmpty;
    }

    // On a value's first token: where its bytes are.
    private static Range Value(ref Utf8JsonReader reader)
    {
        var start = (int)reader.TokenStartIndex;
        reader.Skip();
        return start..(int)reader.BytesConsumed;
    }
}
