using StreamJsonRpc;

namespace JsonRpc.Interop.Tests.Infrastructure;

/// <summary>The methods the providers of these tests serve, the same on StreamJsonRpc and on JsonRpcClient.</summary>
public static class PeerMethods
{
    public const int FailCode = 4321;

    /// <summary>add(a, b), fail() (error <see cref="FailCode"/> with data {"type":"Reason","message":"bad"}), length(s), slow() on a StreamJsonRpc peer.</summary>
    public static void Serve(StreamJsonRpc.JsonRpc rpc, SlowMethod slow)
    {
        rpc.AddLocalRpcMethod("add", new Func<int, int, int>((a, b) => a + b));
        rpc.AddLocalRpcMethod("fail", new Func<int>(() => throw new LocalRpcException("nope") { ErrorCode = FailCode, ErrorData = new { type = "Reason", message = "bad" } }));
        rpc.AddLocalRpcMethod("length", new Func<string, int>(s => s.Length));
        rpc.AddLocalRpcMethod("slow", new Func<CancellationToken, Task<int>>(slow.RunAsync));
    }

    /// <summary>
    /// The error data as StreamJsonRpc hands it to a caller: its System.Text.Json formatter reads it as
    /// <see cref="StreamJsonRpc.Protocol.CommonErrorData"/> (hence the data's shape), its Newtonsoft one as a JSON token.
    /// </summary>
    public static string? DataText(RemoteInvocationException exception) => exception.ErrorData switch
    {
        StreamJsonRpc.Protocol.CommonErrorData common => $"{common.TypeName}: {common.Message}",
        var other => other?.ToString(),
    };

    /// <summary>The same methods on a <see cref="Client.JsonRpcClient"/>.</summary>
    public static void Serve(Client.JsonRpcClient client, SlowMethod slow)
    {
        client.AddMethod("add", (int a, int b) => a + b);
        client.AddMethod("fail", new Func<int>(() => throw new Dispatch.JsonRpcMethodException(FailCode, "nope", Protocol.RawJson.FromUtf8("""{"type":"Reason","message":"bad"}"""u8.ToArray()))));
        client.AddMethod("length", (string s) => s.Length);
        client.AddMethod("slow", new Func<CancellationToken, Task<int>>(slow.RunAsync));
    }
}
