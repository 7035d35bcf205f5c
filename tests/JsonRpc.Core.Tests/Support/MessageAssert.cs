namespace JsonRpc.Core.Tests.Support;

/// <summary>Compares messages member by member (messages have no value equality of their own).</summary>
internal static class MessageAssert
{
    public static void Same(JsonRpcMessage expected, JsonRpcMessage actual)
    {
        Assert.Equal(expected.GetType(), actual.GetType());
        switch (expected)
        {
            case JsonRpcRequest e:
                var r = (JsonRpcRequest)actual;
                Assert.Equal(e.Id, r.Id);
                Assert.Equal(e.Method, r.Method);
                Assert.Equal(e.Params.ToString(), r.Params.ToString());
                break;
            case JsonRpcNotification e:
                var n = (JsonRpcNotification)actual;
                Assert.Equal(e.Method, n.Method);
                Assert.Equal(e.Params.ToString(), n.Params.ToString());
                break;
            case JsonRpcResponse e:
                var s = (JsonRpcResponse)actual;
                Assert.Equal(e.Id, s.Id);
                Assert.Equal(e.Result.ToString(), s.Result.ToString());
                break;
            case JsonRpcError e:
                var f = (JsonRpcError)actual;
                Assert.Equal(e.Id, f.Id);
                Assert.Equal(e.Error.Code, f.Error.Code);
                Assert.Equal(e.Error.Message, f.Error.Message);
                Assert.Equal(e.Error.Data.ToString(), f.Error.Data.ToString());
                break;
            case JsonRpcInvalidMessage e:
                var i = (JsonRpcInvalidMessage)actual;
                Assert.Equal(e.Id, i.Id);
                Assert.Equal(e.Code, i.Code);
                break;
            case JsonRpcBatch e:
                var b = (JsonRpcBatch)actual;
                Assert.Equal(e.Messages.Count, b.Messages.Count);
                for (var k = 0; k < e.Messages.Count; k++)
                {
                    Same(e.Messages[k], b.Messages[k]);
                }

                break;
        }
    }
}
