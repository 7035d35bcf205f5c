using System.Buffers.Text;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace JsonRpc.Server.Tests;

public sealed class LoadTests(ITestOutputHelper output)
{
    private const int Callers = 4;
    private const int CallsPerCaller = 25_000;
    private const int Window = 256;

    /// <summary>
    /// 100,000 calls from four pipelined callers over two providers: every call must come back exactly once, with its
    /// own id and the answer computed from its own params.
    /// </summary>
    [Fact]
    public async Task RoutedCalls_100k_EveryCallAnsweredOnceAndCorrectly()
    {
        await using var server = await RouterServer.StartAsync(o =>
        {
            o.CallTimeout = TimeSpan.FromSeconds(30);
            o.MaxPendingCallsPerConnection = Window * 2;
        });
        await using var p1 = await server.ConnectRegisteredAsync("p1", "double");
        await using var p2 = await server.ConnectRegisteredAsync("p2", "double");
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        var served = new int[2];
        var providers = new[] { Serve(p1, 0), Serve(p2, 1) };

        var stopwatch = Stopwatch.StartNew();
        var callers = new Task[Callers];
        for (var c = 0; c < Callers; c++)
        {
            callers[c] = RunCallerAsync(server.Port, c, stop.Token);
        }

        await Task.WhenAll(callers).WaitAsync(TimeSpan.FromSeconds(60));
        stopwatch.Stop();
        output.WriteLine($"{Callers * CallsPerCaller} calls in {stopwatch.ElapsedMilliseconds} ms; p1 served {served[0]}, p2 served {served[1]}");

        var stats = server.Router.GetStats();
        Assert.Equal(Callers * CallsPerCaller, stats.CallsRouted);
        Assert.Equal(0, stats.PendingCalls);
        Assert.Equal(0, stats.AnswersDropped);
        Assert.Equal(0, stats.Errors);
        Assert.Equal(Callers * CallsPerCaller, served[0] + served[1]);
        Assert.True(served[0] > 0 && served[1] > 0, "both providers took load");
        stop.Cancel();

        // The providers answer each request line by echoing its id and doubling its one param.
        Task Serve(LineClient provider, int index) => Task.Run(async () =>
        {
            var reader = provider.Stream;
            var buffer = new byte[1 << 16];
            int start = 0, end = 0;
            var outBuffer = new MemoryStream();
            while (!stop.IsCancellationRequested)
            {
                int read;
                try
                {
                    read = await reader.ReadAsync(buffer.AsMemory(end), stop.Token);
                }
                catch (OperationCanceledException)
                {
                    return;
                }

                if (read == 0)
                {
                    return;
                }

                end += read;
                outBuffer.SetLength(0);
                int newline;
                while ((newline = Array.IndexOf(buffer, (byte)'\n', start, end - start)) >= 0)
                {
                    var line = buffer.AsSpan(start, newline - start);
                    start = newline + 1;
                    // {"jsonrpc":"2.0","id":N,"method":"double","params":[V]}
                    var idStart = line.IndexOf("\"id\":"u8) + 5;
                    var idEnd = idStart + line[idStart..].IndexOf((byte)',');
                    var valueStart = line.IndexOf("\"params\":["u8) + 10;
                    Utf8Parser.TryParse(line[valueStart..], out long value, out _);
                    outBuffer.Write("{\"jsonrpc\":\"2.0\",\"id\":"u8);
                    outBuffer.Write(line[idStart..idEnd]);
                    outBuffer.Write(Encoding.ASCII.GetBytes($",\"result\":{value * 2}}}\n"));
                    Interlocked.Increment(ref served[index]);
                }

                Buffer.BlockCopy(buffer, start, buffer, 0, end - start);
                end -= start;
                start = 0;
                await reader.WriteAsync(outBuffer.GetBuffer().AsMemory(0, (int)outBuffer.Length), stop.Token);
            }
        });
    }

    private static async Task RunCallerAsync(int port, int caller, CancellationToken cancellationToken)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, port), cancellationToken);
        await using var stream = new NetworkStream(socket, ownsSocket: false);
        var answered = new bool[CallsPerCaller];
        var answers = 0;
        var sent = 0;
        var buffer = new byte[1 << 16];
        int start = 0, end = 0;
        var request = new MemoryStream();

        while (answers < CallsPerCaller)
        {
            // Keep up to Window calls in flight: ids are strings for even callers and numbers for odd ones.
            request.SetLength(0);
            while (sent < CallsPerCaller && sent - answers < Window)
            {
                var id = caller % 2 == 0 ? $"\"c{caller}-{sent}\"" : (caller * 1_000_000 + sent).ToString(System.Globalization.CultureInfo.InvariantCulture);
                request.Write(Encoding.ASCII.GetBytes($"{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"double\",\"params\":[{sent}]}}\n"));
                sent++;
            }

            if (request.Length > 0)
            {
                await stream.WriteAsync(request.GetBuffer().AsMemory(0, (int)request.Length), cancellationToken);
            }

            var read = await stream.ReadAsync(buffer.AsMemory(end), cancellationToken);
            Assert.True(read > 0, "the router closed the connection");
            end += read;
            int newline;
            while ((newline = Array.IndexOf(buffer, (byte)'\n', start, end - start)) >= 0)
            {
                var line = Encoding.ASCII.GetString(buffer, start, newline - start);
                start = newline + 1;
                var n = ParseAnswer(line, caller);
                Assert.False(answered[n], $"call {n} of caller {caller} answered twice");
                answered[n] = true;
                answers++;
            }

            Buffer.BlockCopy(buffer, start, buffer, 0, end - start);
            end -= start;
            start = 0;
        }

        Assert.All(answered, Assert.True);
    }

    private static int ParseAnswer(string line, int caller)
    {
        // {"jsonrpc":"2.0","id":<id>,"result":<2n>}
        var idStart = line.IndexOf("\"id\":", StringComparison.Ordinal) + 5;
        var idEnd = line.IndexOf(",\"result\":", idStart, StringComparison.Ordinal);
        Assert.True(idEnd > 0, line);
        var id = line[idStart..idEnd];
        int n;
        if (caller % 2 == 0)
        {
            var prefix = $"\"c{caller}-";
            Assert.StartsWith(prefix, id);
            n = int.Parse(id[prefix.Length..^1], System.Globalization.CultureInfo.InvariantCulture);
        }
        else
        {
            n = int.Parse(id, System.Globalization.CultureInfo.InvariantCulture) - caller * 1_000_000;
        }

        var result = long.Parse(line[(idEnd + 10)..^1], System.Globalization.CultureInfo.InvariantCulture);
        Assert.Equal(2L * n, result);
        return n;
    }
}
