using System.Net;
using System.Runtime.CompilerServices;
using StreamJsonRpc;

namespace JsonRpc.LoadTest.Engine;

/// <summary>A StreamJsonRpc caller: <c>InvokeWithCancellationAsync&lt;IAsyncEnumerable&lt;int&gt;&gt;</c>, as its users stream values.</summary>
internal sealed class StreamJsonRpcConsumer : IStreamConsumer
{
    private readonly StreamJsonRpc.JsonRpc _rpc;

    private StreamJsonRpcConsumer(StreamJsonRpc.JsonRpc rpc) => _rpc = rpc;

    public static async Task<IStreamConsumer> ConnectAsync(EndPoint endPoint, CancellationToken cancellationToken)
    {
        var stream = await StreamGenerator.ConnectAsync(endPoint, cancellationToken).ConfigureAwait(false);
        var rpc = new StreamJsonRpc.JsonRpc(new HeaderDelimitedMessageHandler(stream, stream));
        rpc.StartListening();
        return new StreamJsonRpcConsumer(rpc);
    }

    public async IAsyncEnumerable<int> StreamAsync(int count, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var values = await _rpc.InvokeWithCancellationAsync<IAsyncEnumerable<int>>("values", [count], cancellationToken).ConfigureAwait(false);
        await foreach (var value in values.WithCancellation(cancellationToken).ConfigureAwait(false))
        {
            yield return value;
        }
    }

    public ValueTask DisposeAsync()
    {
        _rpc.Dispose();
        return ValueTask.CompletedTask;
    }
}
