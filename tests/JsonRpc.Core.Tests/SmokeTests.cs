namespace JsonRpc.Core.Tests;

public class SmokeTests
{
    [Fact]
    public void Parse_Request_KeepsParamsBytes()
    {
        var message = JsonRpcMessage.Parse("""{"jsonrpc":"2.0","method":"subtract","params":[42, 23],"id":1}""");
        var request = Assert.IsType<JsonRpcRequest>(message);
        Assert.Equal("subtract", request.Method);
        Assert.Equal("[42, 23]", request.Params.ToString());
        Assert.True(request.Id.TryGetInt64(out var id) && id == 1);
        Assert.Equal("""{"jsonrpc":"2.0","id":1,"method":"subtract","params":[42, 23]}""", request.ToString());
    }

    [Fact]
    public void TryRead_DuplicateMember_IsInvalidRequest()
    {
        var ok = JsonRpcMessageReader.TryRead("""{"jsonrpc":"2.0","method":"a","method":"b","id":7}"""u8, out var info, out var error);
        Assert.False(ok);
        Assert.Equal(JsonRpcErrorCodes.InvalidRequest, error.Code);
        Assert.True(info.TryGetInt64Id(out var id) && id == 7);
    }
}
