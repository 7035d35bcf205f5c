using System.Net;
using System.Net.Sockets;
using StreamJsonRpc;
using StreamJsonRpc.Protocol;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// A StreamJsonRpc 2.26 generator: <c>values</c> returns an <see cref="IAsyncEnumerable{T}"/>, with prefetch
/// (<c>WithPrefetchAsync</c>, and reading that many ahead) or without (every value one <c>$/enumerator/next</c>).
/// StreamJsonRpc's default handler and formatter (Content-Length headers, Newtonsoft.Json), on both sides.
/// </summary>
internal sealed class StreamJsonRpcGenerator(int prefetch) : StreamGenerator
{
    private readonly List<StreamJsonRpc.JsonRpc> _served = [];

    public override async Task RegisterAsync(EndPoint router, CancellationToken cancellationToken)
    {
        var rpc = Start(await ConnectAsync(router, cancellationToken).ConfigureAwait(false));
        await rpc.InvokeWithParameterObjectAsync<bool>("register_client", new { name = "streams" }, cancellationToken).ConfigureAwait(false);
        await rpc.InvokeWithParameterObjectAsync<bool>("register_method", new { method = "values" }, cancellationToken).ConfigureAwait(false);
    }

    protected override void Serve(NetworkStream stream) => Start(stream);

    private StreamJsonRpc.JsonRpc Start(NetworkStream stream)
    {
        var rpc = new StreamJsonRpc.JsonRpc(new CountingHandler(stream, this));
        rpc.AddLocalRpcMethod("values", new Func<int, CancellationToken, ValueTask<IAsyncEnumerable<int>>>(ValuesAsync));
        rpc.StartListening();
        lock (_served)
        {
            _served.Add(rpc);
        }

        return rpc;
    }

    private ValueTask<IAsyncEnumerable<int>> ValuesAsync(int count, CancellationToken cancellationToken)
    {
        var values = StreamValues.Generate(count);
        return prefetch == 0
            ? ValueTask.FromResult(values)
            : values.WithJsonRpcSettings(new JsonRpcEnumerableSettings { MaxReadAhead = prefetch }).WithPrefetchAsync(prefetch, cancellationToken);
    }

    protected override ValueTask StopServingAsync()
    {
        lock (_served)
        {
            foreach (var rpc in _served)
            {
                rpc.Dispose();
            }
        }

        return ValueTask.CompletedTask;
    }

    /// <summary>StreamJsonRpc's default handler, counting the requests that a batch answers.</summary>
    private sealed class CountingHandler(NetworkStream stream, StreamJsonRpcGenerator generator) : HeaderDelimitedMessageHandler(stream, stream)
    {
        protected override async ValueTask<JsonRpcMessage?> ReadCoreAsync(CancellationToken cancellationToken)
        {
            var message = await base.ReadCoreAsync(cancellationToken).ConfigureAwait(false);
            if (message is JsonRpcRequest { Method: "values" or "$/enumerator/next" })
            {
                generator.CountBatches(1);
            }

            return message;
        }
    }
}
