using System.Buffers;
using System.Text;
using BenchmarkDotNet.Attributes;
using JsonRpc.Server;
using Microsoft.Extensions.Options;

namespace JsonRpc.Benchmarks.Security;

/// <summary>
/// A call routed through a real <see cref="JsonRpcRouter"/> in process, over in-memory pipes with newline framing:
/// the caller writes <c>{"jsonrpc":"2.0","id":N,"method":"team19.echo","params":[1]}</c>, the router checks it, forwards
/// it to the provider's connection under an id of its own, the provider answers, and the router hands the answer back
/// under the caller's id. <see cref="Calls"/> requests are written at once (1: one round trip at a time; 32: that many
/// in flight) and the operation ends when every answer has been read. The baseline has no security configured; the
/// other configures <see cref="SecurityBenchmarkPolicy"/>, both connections authenticated with static tokens, and the
/// caller's 100 call rules checked on each call (the method is allowed by the last of its 25 patterns).
/// </summary>
public class SecuredRoutedCallBenchmarks
{
    private readonly ArrayBufferWriter<byte> _output = new(64 * 1024);
    private JsonRpcRouter _open = null!;
    private JsonRpcRouter _secured = null!;
    private (RouterPipe Caller, RouterPipe Provider) _openPipes;
    private (RouterPipe Caller, RouterPipe Provider) _securedPipes;
    private byte[] _input = [];

    [Params(1, 32)]
    public int Calls { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var input = new StringBuilder();
        for (var i = 1; i <= Calls; i++)
        {
            input.Append("{\"jsonrpc\":\"2.0\",\"id\":").Append(i).Append(",\"method\":\"").Append(SecurityBenchmarkPolicy.RoutedMethod)
                .Append("\",\"params\":[1]}\n");
        }

        _input = Encoding.UTF8.GetBytes(input.ToString());
        (_open, _openPipes) = Start(security: null);
        (_secured, _securedPipes) = Start(SecurityBenchmarkPolicy.Create());

        // Both answer every call with the result, under the caller's ids, before anything is measured.
        var open = Encoding.UTF8.GetString(Answers(_openPipes.Caller));
        var secured = Encoding.UTF8.GetString(Answers(_securedPipes.Caller));
        if (open != secured || !open.EndsWith($"\"id\":{Calls},\"result\":1}}\n", StringComparison.Ordinal)
            || open.Split('\n').Length != Calls + 1 || open.Contains("error", StringComparison.Ordinal))
        {
            throw new InvalidOperationException($"The routers answered differently:\n{open}\n{secured}");
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        foreach (var (caller, provider) in new[] { _openPipes, _securedPipes })
        {
            caller.Complete();
            provider.Complete();
        }

        _open.Dispose();
        _secured.Dispose();
    }

    [Benchmark(Baseline = true, Description = "no security")]
    public int NoSecurity() => RoundTrip(_openPipes.Caller);

    [Benchmark(Description = "100 rules, caller authenticated")]
    public int HundredRules() => RoundTrip(_securedPipes.Caller);

    private int RoundTrip(RouterPipe caller)
    {
        _output.ResetWrittenCount();
        return caller.Client.RoundTrip(_input, Calls, _output);
    }

    private byte[] Answers(RouterPipe caller)
    {
        RoundTrip(caller);
        return _output.WrittenSpan.ToArray();
    }

    internal static (JsonRpcRouter Router, (RouterPipe Caller, RouterPipe Provider) Pipes) Start(JsonRpcSecurityOptions? security)
    {
        var router = new JsonRpcRouter(Options.Create(new JsonRpcRouterOptions { Security = security }));
        var provider = RouterPipe.Connect(router, "provider");
        if (security is not null)
        {
            provider.Call("authenticate", $"{{\"token\":\"{SecurityBenchmarkPolicy.ProviderToken}\"}}");
        }

        provider.Call("register_client", "{\"name\":\"provider\"}");
        provider.Call("register_method", $"{{\"method\":\"{SecurityBenchmarkPolicy.RoutedMethod}\"}}");
        _ = new EchoProvider(provider);

        var caller = RouterPipe.Connect(router, "caller");
        if (security is not null)
        {
            var identity = caller.Call("authenticate", $"{{\"token\":\"{SecurityBenchmarkPolicy.CallerToken}\"}}");
            if (!identity.Contains("\"identity\":\"caller\"", StringComparison.Ordinal))
            {
                throw new InvalidOperationException("The caller signed in as " + identity);
            }
        }

        return (router, (caller, provider));
    }
}
