namespace JsonRpc.Core.Tests;

public class RequestIdTests
{
    [Fact]
    public void Default_IsNoneAndDiffersFromNull()
    {
        RequestId id = default;
        Assert.True(id.IsNone);
        Assert.Equal(RequestId.None, id);
        Assert.NotEqual(RequestId.Null, id);
        Assert.True(RequestId.Null.IsNull);
        Assert.Equal(RequestIdKind.Null, RequestId.Null.Kind);
        Assert.Equal(string.Empty, RequestId.None.ToString());
        Assert.Equal("null", RequestId.Null.ToString());
    }

    [Fact]
    public void Equality_NumberAndStringOfSameTextAreDifferent()
    {
        Assert.NotEqual(new RequestId(1), new RequestId("1"));
        Assert.NotEqual(new RequestId(1), RequestId.FromNumberText("1.0"));
        Assert.NotEqual(new RequestId(0), RequestId.FromNumberText("-0"));
        Assert.NotEqual(RequestId.FromNumberText("1e3"), RequestId.FromNumberText("1E3"));
        Assert.NotEqual(new RequestId(0), RequestId.Null);
        Assert.NotEqual(new RequestId(string.Empty), RequestId.None);
    }

    [Theory]
    [InlineData("1", 1L)]
    [InlineData("-1", -1L)]
    [InlineData("9223372036854775807", long.MaxValue)]
    [InlineData("-9223372036854775808", long.MinValue)]
    public void FromNumberText_PlainInt64_EqualsNumberAndHashesAlike(string text, long value)
    {
        var id = RequestId.FromNumberText(text);
        Assert.Equal(new RequestId(value), id);
        Assert.Equal(new RequestId(value).GetHashCode(), id.GetHashCode());
        Assert.True(id.TryGetInt64(out var read));
        Assert.Equal(value, read);
        Assert.Null(id.NumberText);
        Assert.Equal(text, id.ToString());
    }

    [Theory]
    [InlineData("9223372036854775808")]
    [InlineData("123456789012345678901234567890")]
    [InlineData("1.5")]
    [InlineData("-0")]
    [InlineData("1e3")]
    [InlineData("1.0")]
    public void FromNumberText_NotPlainInt64_KeepsText(string text)
    {
        var id = RequestId.FromNumberText(text);
        Assert.True(id.IsNumber);
        Assert.False(id.TryGetInt64(out _));
        Assert.Equal(text, id.NumberText);
        Assert.Equal(text, id.ToString());
        Assert.Equal(RequestId.FromNumberText(text), id);
        Assert.Equal(RequestId.FromNumberText(text).GetHashCode(), id.GetHashCode());
        Assert.Equal(text, Write(id));
    }

    [Theory]
    [InlineData("")]
    [InlineData(" 1")]
    [InlineData("1 ")]
    [InlineData("01")]
    [InlineData("+1")]
    [InlineData("1.")]
    [InlineData("NaN")]
    [InlineData("\"1\"")]
    [InlineData("1 2")]
    [InlineData("null")]
    public void FromNumberText_NotExactlyOneJsonNumber_Throws(string text)
        => Assert.Throws<ArgumentException>(() => RequestId.FromNumberText(text));

    [Fact]
    public void StringId_KeepsValueAndEscapesWhenWritten()
    {
        RequestId id = "a\"b\\c";
        Assert.True(id.IsString);
        Assert.Equal("a\"b\\c", id.String);
        Assert.Null(id.NumberText);
        Assert.False(id.TryGetInt64(out _));
        Assert.Equal("\"a\\\"b\\\\c\"", id.ToString());
        Assert.Equal("a\"b\\c", JsonSerializer.Deserialize<string>(Write(id)));
        Assert.Throws<ArgumentNullException>(() => new RequestId((string)null!));
    }

    [Fact]
    public void Constructor_LoneSurrogate_Throws()
    {
        // Built in code: attribute arguments are stored as UTF-8, which cannot hold a lone surrogate.
        foreach (var value in new[] { "\ud800", "a\udc00", "\ude00\ud83d", "x\ud83d" })
        {
            Assert.Throws<ArgumentException>(() => new RequestId(value));
        }
    }

    [Fact]
    public void Constructor_SurrogatePair_IsAccepted()
    {
        var id = new RequestId("\ud83d\ude00!");
        Assert.Equal("\"\\uD83D\\uDE00!\"", id.ToString()); // JSON text; the encoder escapes characters outside the BMP
    }

    [Fact]
    public void HashCode_EqualIdsHashAlike_AndIdsWorkAsDictionaryKeys()
    {
        var map = new Dictionary<RequestId, int>
        {
            [new RequestId(1)] = 1,
            [new RequestId("1")] = 2,
            [RequestId.FromNumberText("1.0")] = 3,
            [RequestId.Null] = 4,
        };
        Assert.Equal(1, map[RequestId.FromNumberText("1")]);
        Assert.Equal(2, map[new RequestId(new string('1', 1))]);
        Assert.Equal(3, map[RequestId.FromNumberText("1.0")]);
        Assert.Equal(4, map[RequestId.Null]);
        Assert.False(map.ContainsKey(RequestId.None));
    }

    [Fact]
    public void WriteTo_EveryKind_WritesJsonValue()
    {
        Assert.Equal("42", Write(42));
        Assert.Equal("\"x\"", Write("x"));
        Assert.Equal("null", Write(RequestId.Null));
        Assert.Equal("null", Write(RequestId.None));
    }

    private static string Write(RequestId id)
    {
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream))
        {
            id.WriteTo(writer);
        }

        return System.Text.Encoding.UTF8.GetString(stream.ToArray());
    }
}
