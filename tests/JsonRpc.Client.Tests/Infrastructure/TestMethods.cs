using JsonRpc.Dispatch;
using JsonRpc.Protocol;

namespace JsonRpc.Client.Tests.Infrastructure;

/// <summary>The methods the plain test server offers.</summary>
public static class TestMethods
{
    public static TestServer Install(this TestServer server)
    {
        var d = server.Dispatcher;
        var ctx = TestJsonContext.Default;
        d.Add("add", "a", "b", (int a, int b) => a + b, ctx.Int32, ctx.Int32, ctx.Int32);
        d.AddRaw("echo", static (p, _) => ValueTask.FromResult(p.IsEmpty ? RawJson.Null : p.Detach()));
        d.AddRaw("delay", static async (p, ct) =>
        {
            var args = p.Detach();
            var ms = args.Deserialize(TestJsonContext.Default.Int32Array)![0];
            await Task.Delay(ms, CancellationToken.None);
            return args;
        });
        d.AddRaw("fail", static (_, _) => throw new JsonRpcMethodException(42, "boom", RawJson.Parse("{\"why\":\"test\"}")));
        return server;
    }
}
