using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using JsonRpc.Protocol;

namespace JsonRpc.Core.Tests;

public sealed record Envelope(RequestId Id, RawJson Payload);

[JsonSerializable(typeof(Envelope))]
internal sealed partial class MemberConverterJsonContext : JsonSerializerContext;

public class MemberConverterTests
{
    public static TheoryData<string> Envelopes => new()
    {
        """{"Id":1,"Payload":{"a": [1, 2.50, "x"]}}""",
        """{"Id":"1","Payload":[ ]}""",
        """{"Id":123456789012345678901234567890,"Payload":"text"}""",
        """{"Id":null,"Payload":null}""",
        """{"Id":1.5e3,"Payload":true}""",
    };

    [Theory]
    [MemberData(nameof(Envelopes))]
    public void RawJsonAndRequestIdMembers_RoundTripExactly_WithReflectionAndSourceGeneration(string json)
    {
        var viaReflection = JsonSerializer.Deserialize<Envelope>(json)!;
        var viaContext = JsonSerializer.Deserialize(json, MemberConverterJsonContext.Default.Envelope)!;
        Assert.Equal(viaReflection, viaContext);
        Assert.Equal(json, JsonSerializer.Serialize(viaReflection));
        Assert.Equal(json, JsonSerializer.Serialize(viaContext, MemberConverterJsonContext.Default.Envelope));
    }

    [Fact]
    public void RequestIdMember_StringOneStaysString()
    {
        var envelope = JsonSerializer.Deserialize("""{"Id":"1","Payload":1}""", MemberConverterJsonContext.Default.Envelope)!;
        Assert.True(envelope.Id.IsString);
        Assert.Equal("1", envelope.Id.String);
    }

    [Theory]
    [InlineData("""{"Id":1,"Payload":{"a":1,"a":2}}""", JsonRpcErrorCodes.InvalidRequest)]
    [InlineData("""{"Id":1,"Payload":"\ud800"}""", JsonRpcErrorCodes.ParseError)]
    public void RawJsonMember_IsCheckedStrictly(string json, int code)
    {
        var ex = Assert.Throws<JsonRpcProtocolException>(() => JsonSerializer.Deserialize(Encoding.UTF8.GetBytes(json), MemberConverterJsonContext.Default.Envelope));
        Assert.Equal(code, ex.ErrorCode);
    }

    [Fact]
    public void RequestIdMember_OfWrongKind_IsJsonException()
        => Assert.ThrowsAny<JsonException>(() => JsonSerializer.Deserialize("""{"Id":[1],"Payload":1}""", MemberConverterJsonContext.Default.Envelope));
}
