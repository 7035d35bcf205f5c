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
        var reader = new Utf8JsonReader(@params);
        return Find(ref reader, @params, name, position) ? ReadString(ref reader, name, out value, out problem) : Missing(name, required, out problem);
    }

    /// <summary>Finds an optional boolean parameter: false when absent; false with a reason when it is not a boolean.</summary>
    public static bool TryGetBool(ReadOnlySpan<byte> @params, ReadOnlySpan<byte> name, int position, out bool value, out string? problem)
    {
        value = false;
        problem = null;
        var reader = new Utf8JsonReader(@params);
        if (!Find(ref reader, @params, name, position) || reader.TokenType == JsonTokenType.Null)
        {
            return true;
        }

        if (reader.TokenType is not (JsonTokenType.True or JsonTokenType.False))
        {
            problem = $"\"{System.Text.Encoding.UTF8.GetString(name)}\" must be true or false.";
            return false;
        }

        value = reader.GetBoolean();
        return true;
    }

    /// <summary>
    /// Finds an optional object parameter and gives its exact bytes: null when absent or null; false with a reason when
    /// it is not an object or longer than <paramref name="maxBytes"/>.
    /// </summary>
    public static bool TryGetObject(ReadOnlySpan<byte> @params, ReadOnlySpan<byte> name, int position, int maxBytes, out byte[]? value, out string? problem)
    {
        value = null;
        problem = null;
        var reader = new Utf8JsonReader(@params);
        if (!Find(ref reader, @params, name, position) || reader.TokenType == JsonTokenType.Null)
        {
            return true;
        }

        if (reader.TokenType != JsonTokenType.StartObject)
        {
            problem = $"\"{System.Text.Encoding.UTF8.GetString(name)}\" must be an object.";
            return false;
        }

        var start = (int)reader.TokenStartIndex;
        reader.Skip();
        var length = (int)reader.BytesConsumed - start;
        if (length > maxBytes)
        {
            problem = $"\"{System.Text.Encoding.UTF8.GetString(name)}\" may be at most {maxBytes} bytes.";
            return false;
        }

        value = @params.Slice(start, length).ToArray();
        return true;
    }

    /// <summary>
    /// Moves a fresh reader of <paramref name="params"/> to the value of the parameter named <paramref name="name"/>
    /// (params by name) or at <paramref name="position"/> (by position); false when it is not there.
    /// </summary>
    internal static bool Find(ref Utf8JsonReader reader, ReadOnlySpan<byte> @params, ReadOnlySpan<byte> name, int position)
    {
        if (@params.IsEmpty)
        {
            return false;
        }

        reader.Read();
        if (reader.TokenType == JsonTokenType.StartObject)
        {
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                var match = reader.ValueTextEquals(name);
                reader.Read();
                if (match)
                {
                    return true;
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
                    return true;
                }

                reader.Skip();
            }
        }

        return false;
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
