using System.Diagnostics;
using NATS.Client.Core;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The NATS peer's caller connection: one NATS.Net connection, and as many concurrent request loops ("lanes") on it
/// as the window, each awaiting <c>RequestAsync</c> on the echo subject with the payload string as the message data,
/// as <see cref="ClientCaller"/> does with <c>CallAsync</c> (see <see cref="LaneCaller"/>). A reply must be byte for
/// byte that call's payload, so a reply delivered to the wrong call is a mismatch.
/// </summary>
internal sealed class NatsCaller : LaneCaller
{
    private readonly NatsConnection _connection;

    private NatsCaller(NatsConnection connection, EchoPayload payload, int window, RunClock clock)
        : base(payload, window, clock) => _connection = connection;

    public static async Task<Func<RunClock, ICaller>> ConnectAsync(string url, EchoPayload payload, int window, string name, CancellationToken cancellationToken)
    {
        var connection = await NatsConnections.ConnectAsync(url, name, cancellationToken).ConfigureAwait(false);
        return clock => new NatsCaller(connection, payload, window, clock);
    }

    protected override async Task RunLaneAsync(int lane, CallLedger ledger, CancellationToken hardStop)
    {
        await Task.Yield();
        var data = new byte[Payload.Size];
        // One clock read per call, as in ClientCaller: an answer's time is also the lane's next call's start.
        var now = Stopwatch.GetTimestamp();
        while (Clock.IsSending(now) && ledger.TryBegin(out var id, now))
        {
            var stamp = (lane * LaneStride) + id;
            Payload.WriteString(data, stamp);
            try
            {
                var reply = await _connection.RequestAsync<byte[], NatsMemoryOwner<byte>>(NatsConnections.Subject, data, cancellationToken: hardStop).ConfigureAwait(false);
                now = Stopwatch.GetTimestamp();
                using var owner = reply.Data;
                if (reply.Error is { } error)
                {
                    ledger.Error(id, error.Message, now);
                }
                else
                {
                    ledger.Answer(id, Payload.IsString(owner.Span, stamp), now);
                }
            }
            catch (OperationCanceledException) when (hardStop.IsCancellationRequested)
            {
                ledger.ConnectionFailed("a request still unanswered when the run was stopped (grace period over, or interrupted)");
                return;
            }
            catch (NatsNoRespondersException ex)
            {
                now = Stopwatch.GetTimestamp();
                ledger.Error(id, ex.Message, now);
            }
            catch (NatsException ex)
            {
                ledger.ConnectionFailed($"request failed: {ex.Message}");
                return;
            }
        }
    }

    public override ValueTask DisposeAsync() => _connection.DisposeAsync();
}
