namespace JsonRpc.Core.Tests;

/// <summary>The allocation-free reader's accessors, present and absent.</summary>
public class MessageInfoTests
{
    [Fact]
    public void TryRead_Request_RangesPointAtExactBytes()
    {
        var json = """{ "jsonrpc" : "2.0", "id" : "a\"b", "method" : "sub\u0074ract", "params" : [42, 23] , "x": 1}"""u8;
        Assert.True(JsonRpcMessageReader.TryRead(json, out var info, out _));
        Assert.Equal(JsonRpcMessageKind.Request, info.Kind);
        Assert.Equal(RequestIdKind.String, info.IdKind);
        Assert.True(info.IdIsEscaped);
        Assert.Equal("\"a\\\"b\"", Text(json[info.IdToken]));
        Assert.Equal(new RequestId("a\"b"), info.GetId(json));
        Assert.False(info.TryGetInt64Id(out _));

        Assert.True(info.HasMethod);
        Assert.True(info.MethodIsEscaped);
        Assert.Equal("sub\\u0074ract", Text(json[info.Method]));
        Span<byte> scratch = stackalloc byte[32];
        Assert.Equal("subtract", Text(info.GetMethod(json, scratch)));

        Assert.True(info.HasParams);
        Assert.Equal("[42, 23]", Text(json[info.Params]));
        Assert.False(info.HasResult);
        Assert.False(info.HasError);
        Assert.False(info.HasErrorData);
        Assert.True(json[info.Result].IsEmpty);
        Assert.True(json[info.Error].IsEmpty);
    }

    [Fact]
    public void GetMethod_Unescaped_IsASliceOfTheMessageAndNeedsNoScratch()
    {
        var json = """{"jsonrpc":"2.0","method":"ping"}"""u8;
        Assert.True(JsonRpcMessageReader.TryRead(json, out var info, out _));
        var method = info.GetMethod(json, default);
        Assert.Equal("ping", Text(method));
        Assert.True(method.Overlaps(json));
        Assert.Equal(RequestIdKind.None, info.IdKind);
        Assert.True(json[info.IdToken].IsEmpty);
        Assert.Equal(RequestId.None, info.GetId(json));
        Assert.False(info.HasParams);
        Assert.True(json[info.Params].IsEmpty);
    }

    [Fact]
    public void GetMethod_EscapedWithScratchTooSmall_ThrowsArgumentException()
    {
        var json = Encoding.UTF8.GetBytes("""{"jsonrpc":"2.0","method":"\u0061bcdef"}""");
        Assert.True(JsonRpcMessageReader.TryRead(json, out var info, out _));
        Assert.Throws<ArgumentException>(() => info.GetMethod(json, new byte[2]));
    }

    [Fact]
    public void TryRead_Error_ExposesCodeMessageAndData()
    {
        var json = """{"jsonrpc":"2.0","id":-7,"error":{"data":[1, 2],"message":"bad \"x\"","code":-32602}}"""u8;
        Assert.True(JsonRpcMessageReader.TryRead(json, out var info, out _));
        Assert.Equal(JsonRpcMessageKind.Error, info.Kind);
        Assert.True(info.TryGetInt64Id(out var id));
        Assert.Equal(-7, id);
        Assert.Equal("-7", Text(json[info.IdToken]));
        Assert.True(info.HasError);
        Assert.Equal("""{"data":[1, 2],"message":"bad \"x\"","code":-32602}""", Text(json[info.Error]));
        Assert.Equal(-32602, info.ErrorCode);
        Assert.Equal("bad \\\"x\\\"", Text(json[info.ErrorMessage]));
        Assert.Equal("bad \"x\"", info.GetErrorMessage(json));
        Assert.True(info.HasErrorData);
        Assert.Equal("[1, 2]", Text(json[info.ErrorData]));
        Assert.False(info.HasMethod);
        Assert.True(info.GetMethod(json, default).IsEmpty);
    }

    [Fact]
    public void TryRead_Response_ExposesResultOfAnyKind()
    {
        var json = """{"jsonrpc":"2.0","result":"s","id":null}"""u8;
        Assert.True(JsonRpcMessageReader.TryRead(json, out var info, out _));
        Assert.Equal(JsonRpcMessageKind.Response, info.Kind);
        Assert.Equal(RequestIdKind.Null, info.IdKind);
        Assert.Equal("null", Text(json[info.IdToken]));
        Assert.Equal(RequestId.Null, info.GetId(json));
        Assert.Equal("\"s\"", Text(json[info.Result]));
    }

    [Fact]
    public void IdToken_SplicingANewId_GivesAValidMessage()
    {
        // What a router does: replace the id token with its own without reading the rest.
        var json = """{"jsonrpc":"2.0","id":"client-1","method":"m","params":[1]}"""u8.ToArray();
        Assert.True(JsonRpcMessageReader.TryRead(json, out var info, out _));
        var (start, length) = info.IdToken.GetOffsetAndLength(json.Length);
        byte[] rewritten = [.. json.AsSpan(0, start), .. "42"u8, .. json.AsSpan(start + length)];
        var request = Assert.IsType<JsonRpcRequest>(JsonRpcMessage.Parse(rewritten));
        Assert.Equal(new RequestId(42), request.Id);
        Assert.Equal("[1]", request.Params.ToString());
    }

    [Fact]
    public void TryRead_ParseError_LeavesDefaultInfo()
    {
        Assert.False(JsonRpcMessageReader.TryRead("""{"jsonrpc":"2.0","id":5,"method":"m",}"""u8, out var info, out var error));
        Assert.Equal(JsonRpcErrorCodes.ParseError, error.Code);
        Assert.Equal("Parse error", error.Message);
        Assert.Equal(JsonRpcMessageKind.Invalid, info.Kind);
        Assert.Equal(RequestIdKind.None, info.IdKind);
        var ex = error.ToException();
        Assert.Equal(JsonRpcErrorCodes.ParseError, ex.ErrorCode);
        Assert.Equal(error.Detail, ex.Detail);
    }

    [Fact]
    public void ToErrorResponse_WithDetail_PutsDetailInData()
    {
        Assert.False(JsonRpcMessageReader.TryRead("""{"jsonrpc":"2.0","id":5,"method":1}"""u8, out var info, out var error));
        var ex = error.ToException(info.GetId("""{"jsonrpc":"2.0","id":5,"method":1}"""u8));
        Assert.Equal("Invalid Request", ex.ToErrorResponse().Error.Message);
        Assert.True(ex.ToErrorResponse().Error.Data.IsEmpty);
        var withDetail = ex.ToErrorResponse(includeDetail: true);
        Assert.Equal(new RequestId(5), withDetail.Id);
        Assert.Equal(error.Detail, withDetail.Error.Data.Deserialize(JsonRpcJsonContext.Default.String));
    }

    private static string Text(ReadOnlySpan<byte> utf8) => Encoding.UTF8.GetString(utf8);
}
