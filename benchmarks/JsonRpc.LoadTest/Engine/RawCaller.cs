using System.Buffers.Text;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The minimal caller, in the manner of muRPC's perf_test: one socket, and one loop that sends the window's worth of
/// requests in one write, then for each receive checks every complete answer and refills the window with one write.
/// With a window of 1 that is exactly a closed loop. Answers are checked by exact bytes when they come in the
/// canonical shape (<c>{"jsonrpc":"2.0","id":N,"result":…}</c>, which is how the router forwards the echo provider's
/// answers) and otherwise read in full with <see cref="JsonRpcMessageReader"/>, so nothing wrong passes unnoticed.
/// </summary>
internal sealed class RawCaller : ICaller
{
    // Beyond this many bytes of requests, the rest of the window waits for the next receive.
    private const int MaxWriteBytes = 1024 * 1024;
    private readonly LineSocket _socket;
    private readonly CallLedger _ledger;
    private readonly RunClock _clock;

    private RawCaller(LineSocket socket, CallLedger ledger, RunClock clock)
    {
        _socket = socket;
        _ledger = ledger;
        _clock = clock;
    }

    public IReadOnlyList<CallLedger> Ledgers => [_ledger];

    private static ReadOnlySpan<byte> AnswerPrefix => "{\"jsonrpc\":\"2.0\",\"id\":"u8;

    private static ReadOnlySpan<byte> ResultMember => ",\"result\":"u8;

    /// <summary>Connects; the calls start with <see cref="RunAsync"/>.</summary>
    public static async Task<Func<RunClock, ICaller>> ConnectAsync(EndPoint endPoint, EchoPayload payload, int window, CancellationToken cancellationToken)
    {
        var socket = await LineSocket.ConnectAsync(endPoint, payload.RequestLength(20), cancellationToken).ConfigureAwait(false);
        if (LoadAuth.AuthenticateLine is { } authenticate)
        {
            await socket.SendLineAsync(authenticate, cancellationToken).ConfigureAwait(false);
            var answer = await socket.ReadLineAsync(cancellationToken).ConfigureAwait(false);
            if (answer is null || !System.Text.Encoding.UTF8.GetString(answer).Contains("\"identity\"", StringComparison.Ordinal))
            {
                socket.Dispose();
                throw new InvalidOperationException("The router refused the caller's token.");
            }
        }

        return clock => new RawCaller(socket, new CallLedger(window, payload, clock), clock);
    }

    public async Task RunAsync(CancellationToken hardStop)
    {
        // Off the connecting thread: every caller runs its own loop on the pool.
        await Task.Yield();
        try
        {
            FillWindow();
            await _socket.FlushAsync(hardStop).ConfigureAwait(false);
            while (_ledger.InFlight > 0)
            {
                if (!await _socket.ReceiveAsync(hardStop).ConfigureAwait(false))
                {
                    _ledger.ConnectionFailed($"the router closed the connection with {_ledger.InFlight} calls in flight");
                    return;
                }

                var now = Stopwatch.GetTimestamp();
                while (_socket.TryReadLine(out var line))
                {
                    HandleAnswer(line, now);
                }

                if (_clock.IsSending(now))
                {
                    FillWindow();
                }

                if (_socket.Output.WrittenCount > 0)
                {
                    await _socket.FlushAsync(hardStop).ConfigureAwait(false);
                }
            }
        }
        catch (OperationCanceledException) when (hardStop.IsCancellationRequested)
        {
            _ledger.ConnectionFailed($"{_ledger.InFlight} calls still unanswered when the run was stopped (grace period over, or interrupted)");
        }
        catch (Exception ex) when (ex is SocketException or IOException or ObjectDisposedException)
        {
            _ledger.ConnectionFailed($"connection failed: {ex.Message}");
        }
    }

    private void FillWindow()
    {
        // The calls of one fill leave in one send: one send time for all of them.
        var output = _socket.Output;
        var now = Stopwatch.GetTimestamp();
        while (output.WrittenCount < MaxWriteBytes && _ledger.TryBegin(out var id, now))
        {
            _ledger.Payload.WriteRequest(output, id);
        }
    }

    private void HandleAnswer(ReadOnlySpan<byte> line, long now)
    {
        // The fast path only ever accepts an exact echo; anything else is read in full before it is judged.
        if (line.StartsWith(AnswerPrefix) && line[^1] == '}'
            && Utf8Parser.TryParse(line[AnswerPrefix.Length..], out long id, out var digits)
            && line[(AnswerPrefix.Length + digits)..].StartsWith(ResultMember)
            && _ledger.Payload.IsEcho(line[(AnswerPrefix.Length + digits + ResultMember.Length)..^1], id))
        {
            _ledger.Answer(id, isEcho: true, now);
            return;
        }

        if (!JsonRpcMessageReader.TryRead(line, out var info, out var error))
        {
            _ledger.Stray($"an unreadable answer: {error.Detail}");
            return;
        }

        var hasId = info.TryGetInt64Id(out id);
        switch (info.Kind)
        {
            case JsonRpcMessageKind.Response when hasId:
                _ledger.Answer(id, _ledger.Payload.IsEcho(line[info.Result], id), now);
                break;
            case JsonRpcMessageKind.Error when hasId:
                _ledger.Error(id, $"error {info.ErrorCode}: {info.GetErrorMessage(line)}", now);
                break;
            case JsonRpcMessageKind.Error:
                _ledger.Stray($"an error for no call of ours: {info.ErrorCode} {info.GetErrorMessage(line)}");
                break;
            default:
                _ledger.Stray($"a {info.Kind} where an answer was expected");
                break;
        }
    }

    public ValueTask DisposeAsync()
    {
        _socket.Dispose();
        return ValueTask.CompletedTask;
    }
}
