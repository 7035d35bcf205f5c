using System.Net;
using System.Net.Sockets;
using System.Text;
using JsonRpc.Dispatch;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// Our stack's generator: a <see cref="JsonRpcDispatcher"/> serving <c>values</c> with <c>AddStream</c> over
/// <c>ServeAsync(Stream)</c> (newline-delimited), on each connection it accepts or on its connection to the router.
/// Prefetch off, every pull gets one value (as a StreamJsonRpc generator without prefetch gives); on, the answer
/// carries the first <c>prefetch</c> values and each pull up to that many.
/// </summary>
internal sealed class DispatcherGenerator : StreamGenerator
{
    private readonly JsonRpcDispatcher _dispatcher;
    private readonly List<Task> _serving = [];

    public DispatcherGenerator(int prefetch, int callers)
    {
        _dispatcher = new JsonRpcDispatcher(new JsonRpcDispatcherOptions
        {
            EnumeratorPrefetch = prefetch,
            EnumeratorMaxBatch = Math.Max(1, prefetch),
            // Through the router one connection serves every caller's stream (and those cut off at the run's end).
            MaxOpenEnumerators = Math.Max(16, 4 * callers),
            MaxConcurrentCalls = Math.Max(64, 4 * callers),
        });
        _dispatcher.AddStream<int[], int>("values", static (p, _) => StreamValues.Generate(p[0]), StreamingJsonContext.Default.Int32Array, StreamingJsonContext.Default.Int32);
    }

    /// <summary>
    /// Registers with two requests written before the dispatcher serves the connection, whose two answers are read
    /// here byte by byte up to their newlines, so that nothing the dispatcher should read is taken.
    /// </summary>
    public override async Task RegisterAsync(EndPoint router, CancellationToken cancellationToken)
    {
        var stream = await ConnectAsync(router, cancellationToken).ConfigureAwait(false);
        try
        {
            await stream.WriteAsync(Encoding.UTF8.GetBytes(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"register_client\",\"params\":{\"name\":\"streams\"}}\n" +
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"register_method\",\"params\":{\"method\":\"values\"}}\n"), cancellationToken).ConfigureAwait(false);
            var answers = new List<byte>();
            var lines = 0;
            var one = new byte[1];
            while (lines < 2)
            {
                if (await stream.ReadAsync(one, cancellationToken).ConfigureAwait(false) == 0)
                {
                    throw new IOException("The router closed the connection while registering.");
                }

                answers.Add(one[0]);
                lines += one[0] == '\n' ? 1 : 0;
            }

            var text = Encoding.UTF8.GetString([.. answers]);
            if (text.Contains("\"error\"", StringComparison.Ordinal))
            {
                throw new InvalidOperationException($"Registering with the router failed: {text}");
            }
        }
        catch
        {
            await stream.DisposeAsync().ConfigureAwait(false);
            throw;
        }

        Serve(stream);
    }

    protected override void Serve(NetworkStream stream)
    {
        var counting = new LineCountingStream(stream, lines => CountBatches(lines));
        lock (_serving)
        {
            _serving.Add(ServeAsync(counting));
        }
    }

    private async Task ServeAsync(Stream stream)
    {
        await using (stream.ConfigureAwait(false))
        {
            try
            {
                await _dispatcher.ServeAsync(stream, cancellationToken: Stopping).ConfigureAwait(false);
            }
            catch (Exception) when (Stopping.IsCancellationRequested)
            {
                // Stopped.
            }
        }
    }

    protected override async ValueTask StopServingAsync()
    {
        Task[] serving;
        lock (_serving)
        {
            serving = [.. _serving];
        }

        await Task.WhenAll(serving).WaitAsync(TimeSpan.FromSeconds(10)).ConfigureAwait(false);
    }
}
