using System.Buffers;
using System.Net;
using System.Net.Sockets;
using System.Text;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The minimal echo provider: registers with the router, provides <c>echo</c>, and answers each request with its own
/// params as the result, reading every request with <see cref="JsonRpcMessageReader"/> and writing all the answers to
/// one receive with one send.
/// </summary>
internal sealed class RawEchoProvider : IEchoProvider
{
    private readonly LineSocket _socket;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _serving;

    private RawEchoProvider(LineSocket socket)
    {
        _socket = socket;
        _serving = ServeAsync();
    }

    public string? Failure { get; private set; }

    private static ReadOnlySpan<byte> AnswerPrefix => "{\"jsonrpc\":\"2.0\",\"id\":"u8;

    private static ReadOnlySpan<byte> ResultMember => ",\"result\":"u8;

    public static async Task<RawEchoProvider> StartAsync(EndPoint endPoint, string name, int expectedLine, CancellationToken cancellationToken)
    {
        var socket = await LineSocket.ConnectAsync(endPoint, expectedLine, cancellationToken).ConfigureAwait(false);
        try
        {
            var token = LoadAuth.Token is { } t ? ",\"token\":\"" + t + "\"" : "";
            await CallAsync(socket, $$$"""{"jsonrpc":"2.0","id":1,"method":"register_client","params":{"name":"{{{name}}}"{{{token}}}}}""", cancellationToken).ConfigureAwait(false);
            await CallAsync(socket, $$$"""{"jsonrpc":"2.0","id":2,"method":"register_method","params":{"method":"{{{EchoPayload.Method}}}"}}""", cancellationToken).ConfigureAwait(false);
            return new RawEchoProvider(socket);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    private static async Task CallAsync(LineSocket socket, string request, CancellationToken cancellationToken)
    {
        await socket.SendLineAsync(Encoding.UTF8.GetBytes(request), cancellationToken).ConfigureAwait(false);
        var answer = await socket.ReadLineAsync(cancellationToken).ConfigureAwait(false)
            ?? throw new IOException("The router closed the connection during registration.");
        if (!JsonRpcMessageReader.TryRead(answer, out var info, out _) || info.Kind != JsonRpcMessageKind.Response
            || !answer.AsSpan(info.Result).SequenceEqual("true"u8))
        {
            throw new InvalidOperationException($"The router refused {request}: {Encoding.UTF8.GetString(answer)}");
        }
    }

    private async Task ServeAsync()
    {
        await Task.Yield();
        var token = _stop.Token;
        try
        {
            while (await _socket.ReceiveAsync(token).ConfigureAwait(false))
            {
                while (_socket.TryReadLine(out var line))
                {
                    Answer(line);
                }

                if (_socket.Output.WrittenCount > 0)
                {
                    await _socket.FlushAsync(token).ConfigureAwait(false);
                }
            }

            if (!token.IsCancellationRequested)
            {
                Failure = "the router closed the provider's connection";
            }
        }
        catch (OperationCanceledException) when (token.IsCancellationRequested)
        {
        }
        catch (Exception ex) when (ex is SocketException or IOException or ObjectDisposedException)
        {
            Failure = token.IsCancellationRequested ? null : $"provider connection failed: {ex.Message}";
        }
    }

    private void Answer(ReadOnlySpan<byte> line)
    {
        if (!JsonRpcMessageReader.TryRead(line, out var info, out _) || info.Kind != JsonRpcMessageKind.Request)
        {
            return; // notifications get nothing; the router sends nothing else here
        }

        var output = _socket.Output;
        output.Write(AnswerPrefix);
        output.Write(line[info.IdToken]);
        output.Write(ResultMember);
        output.Write(info.HasParams ? line[info.Params] : "null"u8);
        output.Write("}\n"u8);
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        await _serving.ConfigureAwait(false);
        _socket.Dispose();
        _stop.Dispose();
    }
}
