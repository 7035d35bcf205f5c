namespace JsonRpc.Core.Tests.Support;

/// <summary>JSON equality for tests: values compared by meaning, top-level arrays optionally as multisets.</summary>
internal static class JsonAssert
{
    public static void Equal(string expected, ReadOnlySpan<byte> actual, bool topLevelArrayAsMultiset = false)
    {
        using var expectedDocument = JsonDocument.Parse(expected);
        using var actualDocument = JsonDocument.Parse(actual.ToArray());
        var e = expectedDocument.RootElement;
        var a = actualDocument.RootElement;
        var equal = topLevelArrayAsMultiset && e.ValueKind == JsonValueKind.Array && a.ValueKind == JsonValueKind.Array
            ? MultisetEquals(e, a)
            : JsonElement.DeepEquals(e, a);
        Assert.True(equal, $"JSON differs.\nExpected: {expected}\nActual:   {Encoding.UTF8.GetString(actual)}");
    }

    public static void Equal(string expected, string actual, bool topLevelArrayAsMultiset = false)
        => Equal(expected, Encoding.UTF8.GetBytes(actual), topLevelArrayAsMultiset);

    private static bool MultisetEquals(JsonElement expected, JsonElement actual)
    {
        if (expected.GetArrayLength() != actual.GetArrayLength())
        {
            return false;
        }

        var used = new bool[expected.GetArrayLength()];
        foreach (var item in actual.EnumerateArray())
        {
            var matched = false;
            var i = 0;
            foreach (var candidate in expected.EnumerateArray())
            {
                if (!used[i] && JsonElement.DeepEquals(candidate, item))
                {
                    used[i] = matched = true;
                    break;
                }

                i++;
            }

            if (!matched)
            {
                return false;
            }
        }

        return true;
    }
}
