namespace JsonRpc.Core.Tests;

public class ErrorCodeTests
{
    [Theory]
    [InlineData(JsonRpcErrorCodes.ParseError, -32700, "Parse error")]
    [InlineData(JsonRpcErrorCodes.InvalidRequest, -32600, "Invalid Request")]
    [InlineData(JsonRpcErrorCodes.MethodNotFound, -32601, "Method not found")]
    [InlineData(JsonRpcErrorCodes.InvalidParams, -32602, "Invalid params")]
    [InlineData(JsonRpcErrorCodes.InternalError, -32603, "Internal error")]
    public void Constants_AreTheSpecsCodesAndMessages(int constant, int code, string message)
    {
        Assert.Equal(code, constant);
        Assert.Equal(message, JsonRpcErrorCodes.GetStandardMessage(code));
        Assert.Equal(message, JsonRpcErrorDetail.FromCode(code).Message);
        Assert.True(JsonRpcErrorCodes.IsReserved(code));
        Assert.False(JsonRpcErrorCodes.IsServerError(code));
    }

    [Theory]
    [InlineData(-32099, true, "Server error")]
    [InlineData(-32000, true, "Server error")]
    [InlineData(-32100, false, "Error")]
    [InlineData(-31999, false, "Error")]
    [InlineData(42, false, "Error")]
    public void FromCode_OtherCodes_NamesTheServerRangeOnly(int code, bool serverError, string message)
    {
        Assert.Equal(serverError, JsonRpcErrorCodes.IsServerError(code));
        Assert.Null(JsonRpcErrorCodes.GetStandardMessage(code));
        Assert.Equal(message, JsonRpcErrorDetail.FromCode(code).Message);
        Assert.Equal(-32099, JsonRpcErrorCodes.ServerErrorRangeStart);
        Assert.Equal(-32000, JsonRpcErrorCodes.ServerErrorRangeEnd);
    }
}
