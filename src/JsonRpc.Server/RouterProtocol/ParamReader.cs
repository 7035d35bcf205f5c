using System.Text.Json;

namespace JsonRpc.Server.RouterProtocol;

/// <summary>
/// Reads one string parameter of a built-in method, given by name (<c>{"name": "x"}</c>) or by position
/// (<c>["x"]</c>). Built-in calls are rare (registration), so this may allocate the string.
/// </summary>
internal static class ParamReader
{
    /// <summary>
    /// Finds the parameter. Returns false, with a reason, when it is missing or not a string; returns true with a
    /// null value when it is absent and <paramref name="required"/> is false.
    /// </summary>
    public static bool TryGetString(ReadOnlySpan<byte> @params, ReadOnlySpan<byte> name, int position, bool required, out string? value, out string? problem)
    {
        value = null;
        problem = null;
        if (@params.IsEmpty)
        {
            return Missing(name, required, out problem);
        }

        var reader = new Utf8JsonReader(@params);
        reader.Read();
        if (reader.TokenType == JsonTokenType.StartObject)
        {
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                var match = reader.ValueTextEquals(name);
                reader.Read();
                if (match)
                {
                    return ReadString(ref reader, name, out value, out problem);
                }

                reader.Skip();
            }
        }
        else if (reader.TokenType == JsonTokenType.StartArray)
        {
            var index = 0;
            while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
            {
                if (index++ == position)
                {
                    return ReadString(ref reader, name, out value, out problem);
                }

                reader.Skip();
            }
        }

        return Missing(name, required, out problem);
    }

    private static bool ReadString(ref Utf8JsonReader reader, ReadOnlySpan<byte> name, out string? value, out string? problem)
    {
        if (reader.TokenType != JsonTokenType.String)
        {
            value = null;
            problem = $"\"{System.Text.Encoding.UTF8.GetString(name)}\" must be a string.";
            return false;
        }

        value = reader.GetString();
        problem = null;
        return true;
    }

    private static bool Missing(ReadOnlySpan<byte> name, bool required, out string? problem)
    {
        problem = required ? $"The parameter \"{System.Text.Encoding.UTF8.GetString(name)}\" is required." : null;
        return !required;
    }
}
