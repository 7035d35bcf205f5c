using System.Buffers.Text;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// One connection of the noisy neighbour (<c>--flood-token</c>): authenticated with its own token, it keeps a window
/// of echo calls in flight, refilled as fast as answers arrive, and sorts the answers: results (checked as echoes),
/// <c>-32015</c> refusals whose <c>data.retry_after_ms</c> is above zero, and anything else. It never retries: a
/// refused call is done, the next call is a new one. Told to stop, it sends nothing more and reads until every call
/// it made is answered; each must be answered exactly once (<see cref="CallLedger"/> checks the ids).
/// </summary>
internal sealed class FloodClient : IAsyncDisposable
{
    private readonly LineSocket _socket;
    private readonly CallLedger _ledger;
    private readonly RunClock _clock;
    private long _results;
    private long _refusals;
    private long _refusalsWithoutRetry;
    private long _otherErrors;
    private long _measuredRefusals;
    private long _measuredResults;
    private string? _problem;

    private FloodClient(LineSocket socket, CallLedger ledger, RunClock clock)
    {
        _socket = socket;
        _ledger = ledger;
        _clock = clock;
    }

    /// <summary>Calls sent.</summary>
    public long Sent => _ledger.Sent;

    /// <summary>Calls answered once, of any kind.</summary>
    public long Answered => _ledger.Answered;

    /// <summary>Answered with a result.</summary>
    public long Results => Volatile.Read(ref _results);

    /// <summary>Answered <c>-32015</c> with a <c>retry_after_ms</c> above zero.</summary>
    public long Refusals => Volatile.Read(ref _refusals);

    /// <summary>Answered <c>-32015</c> without a <c>retry_after_ms</c> above zero.</summary>
    public long RefusalsWithoutRetry => _refusalsWithoutRetry;

    /// <summary>Answered with any other error.</summary>
    public long OtherErrors => _otherErrors;

    /// <summary>Refusals that arrived inside the clock's measured window.</summary>
    public long MeasuredRefusals => _measuredRefusals;

    /// <summary>Results that arrived inside the clock's measured window.</summary>
    public long MeasuredResults => _measuredResults;

    /// <summary>Answers of any kind inside the measured window.</summary>
    public long MeasuredAnswers => _ledger.Measured;

    /// <summary>The smallest <c>retry_after_ms</c> seen (long.MaxValue before the first refusal).</summary>
    public long MinRetryAfterMs { get; private set; } = long.MaxValue;

    /// <summary>The largest <c>retry_after_ms</c> seen.</summary>
    public long MaxRetryAfterMs { get; private set; }

    /// <summary>The first thing that went wrong (a call lost or answered twice, an answer that is neither a result nor a refusal), or null.</summary>
    public string? Problem =>
        _ledger.Failure ?? _problem
        ?? (_ledger.Duplicates + _ledger.Unexpected + _ledger.Mismatches > 0 ? _ledger.FirstProblem
            : _ledger.Answered != _ledger.Sent ? $"a flood connection got {_ledger.Answered} answers to {_ledger.Sent} calls"
            : null);

    /// <summary>Connects and authenticates with <paramref name="token"/>; the calls start with <see cref="RunAsync"/>, answers count as measured in <paramref name="clock"/>'s window.</summary>
    public static async Task<FloodClient> ConnectAsync(EndPoint endPoint, string token, EchoPayload payload, int window, RunClock clock, CancellationToken cancellationToken)
    {
        var socket = await LineSocket.ConnectAsync(endPoint, payload.RequestLength(20), cancellationToken).ConfigureAwait(false);
        try
        {
            await socket.SendLineAsync(LoadAuth.AuthenticateLineFor(token), cancellationToken).ConfigureAwait(false);
            var answer = await socket.ReadLineAsync(cancellationToken).ConfigureAwait(false);
            if (answer is null || !System.Text.Encoding.UTF8.GetString(answer).Contains("\"identity\"", StringComparison.Ordinal))
            {
                throw new InvalidOperationException("The router refused the flood's token.");
            }
        }
        catch
        {
            socket.Dispose();
            throw;
        }

        return new FloodClient(socket, new CallLedger(window, payload, clock), clock);
    }

    /// <summary>Calls until <paramref name="stopSending"/>, then collects the answers still due; <paramref name="hardStop"/> cuts the socket.</summary>
    public async Task RunAsync(CancellationToken stopSending, CancellationToken hardStop)
    {
        await Task.Yield();
        try
        {
            FillWindow(stopSending);
            await _socket.FlushAsync(hardStop).ConfigureAwait(false);
            while (_ledger.InFlight > 0)
            {
                if (!await _socket.ReceiveAsync(hardStop).ConfigureAwait(false))
                {
                    _ledger.ConnectionFailed($"the router closed a flood connection with {_ledger.InFlight} calls in flight");
                    return;
                }

                var now = Stopwatch.GetTimestamp();
                while (_socket.TryReadLine(out var line))
                {
                    HandleAnswer(line, now);
                }

                FillWindow(stopSending);
                if (_socket.Output.WrittenCount > 0)
                {
                    await _socket.FlushAsync(hardStop).ConfigureAwait(false);
                }
            }
        }
        catch (OperationCanceledException) when (hardStop.IsCancellationRequested)
        {
            _ledger.ConnectionFailed($"{_ledger.InFlight} flood calls still unanswered when the run was stopped");
        }
        catch (Exception ex) when (ex is SocketException or IOException or ObjectDisposedException)
        {
            _ledger.ConnectionFailed($"a flood connection failed: {ex.Message}");
        }
    }

    private void FillWindow(CancellationToken stopSending)
    {
        while (!stopSending.IsCancellationRequested && _ledger.TryBegin(out var id))
        {
            _ledger.Payload.WriteRequest(_socket.Output, id);
        }
    }

    private void HandleAnswer(ReadOnlySpan<byte> line, long now)
    {
        if (!JsonRpcMessageReader.TryRead(line, out var info, out var error))
        {
            _ledger.Stray($"an unreadable answer to the flood: {error.Detail}");
            return;
        }

        if (!info.TryGetInt64Id(out var id) || info.Kind is not (JsonRpcMessageKind.Response or JsonRpcMessageKind.Error))
        {
            _ledger.Stray($"a {info.Kind} where the flood expected an answer");
            return;
        }

        var measured = _clock.IsMeasured(now);
        if (info.Kind == JsonRpcMessageKind.Response)
        {
            if (_ledger.Answer(id, _ledger.Payload.IsEcho(line[info.Result], id), now))
            {
                Volatile.Write(ref _results, _results + 1);
                _measuredResults += measured ? 1 : 0;
            }

            return;
        }

        if (!_ledger.Settle(id, now))
        {
            return;
        }

        if (info.ErrorCode != Server.RouterErrorCodes.QuotaExceeded)
        {
            _otherErrors++;
            _problem ??= $"flood call {id}: error {info.ErrorCode}: {info.GetErrorMessage(line)}";
        }
        else if (RetryAfterMs(line[info.ErrorData]) is > 0 and var retry)
        {
            Volatile.Write(ref _refusals, _refusals + 1);
            _measuredRefusals += measured ? 1 : 0;
            MinRetryAfterMs = Math.Min(MinRetryAfterMs, retry);
            MaxRetryAfterMs = Math.Max(MaxRetryAfterMs, retry);
        }
        else
        {
            _refusalsWithoutRetry++;
            _problem ??= $"flood call {id}: refused -32015 without a retry_after_ms above zero";
        }
    }

    /// <summary>The top-level <c>retry_after_ms</c> of an error's data, or 0 when it has none.</summary>
    private static long RetryAfterMs(ReadOnlySpan<byte> data)
    {
        if (data.IsEmpty)
        {
            return 0;
        }

        var reader = new Utf8JsonReader(data);
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
        {
            return 0;
        }

        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var isRetry = reader.ValueTextEquals("retry_after_ms"u8);
            reader.Read();
            if (isRetry)
            {
                return reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out var ms) ? ms : 0;
            }

            reader.Skip();
        }

        return 0;
    }

    public ValueTask DisposeAsync()
    {
        _socket.Dispose();
        return ValueTask.CompletedTask;
    }
}
