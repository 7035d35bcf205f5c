using System.Buffers;
using System.Diagnostics;
using System.Net;
using JsonRpc.Client;
using JsonRpc.Protocol;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// A caller connection through the project's <see cref="JsonRpcClient"/>, as an application would make calls: one
/// client per connection, and as many concurrent call loops ("lanes") on it as the window, each awaiting
/// <see cref="JsonRpcClient.CallAsync(string, RawJson, IBufferWriter{byte}, CancellationToken)"/> with the payload as raw
/// JSON params and checking the raw result, appended to the lane's reused buffer (see <see cref="LaneCaller"/>), as
/// NATS.Net's callers take each reply in pooled memory (<see cref="NatsCaller"/>). The client matches answers to calls itself, so duplicates
/// cannot surface here.
/// </summary>
internal sealed class ClientCaller : LaneCaller
{
    private readonly JsonRpcClient _client;

    private ClientCaller(JsonRpcClient client, EchoPayload payload, int window, RunClock clock)
        : base(payload, window, clock) => _client = client;

    public static async Task<Func<RunClock, ICaller>> ConnectAsync(EndPoint endPoint, EchoPayload payload, int window, CancellationToken cancellationToken)
    {
        var client = await ClientConnections.ConnectAsync(endPoint, payload.Size, cancellationToken).ConfigureAwait(false);
        return clock => new ClientCaller(client, payload, window, clock);
    }

    protected override async Task RunLaneAsync(int lane, CallLedger ledger, CancellationToken hardStop)
    {
        await Task.Yield();
        var size = Payload.Size;
        var parameters = new byte[size + 4];
        "[\""u8.CopyTo(parameters);
        "\"]"u8.CopyTo(parameters.AsSpan(size + 2));
        var result = new ArrayBufferWriter<byte>(size + 4);
        // One clock read per call: the time an answer arrives is also when the lane's next call starts.
        var now = Stopwatch.GetTimestamp();
        while (Clock.IsSending(now) && ledger.TryBegin(out var id, now))
        {
            var stamp = (lane * LaneStride) + id;
            Payload.WriteString(parameters.AsSpan(2, size), stamp);
            try
            {
                result.ResetWrittenCount();
                await _client.CallAsync(EchoPayload.Method, RawJson.FromUtf8(parameters), result, hardStop).ConfigureAwait(false);
                now = Stopwatch.GetTimestamp();
                ledger.Answer(id, Payload.IsEcho(result.WrittenSpan, stamp), now);
            }
            catch (JsonRpcRemoteException ex)
            {
                now = Stopwatch.GetTimestamp();
                ledger.Error(id, $"error {ex.Code}: {ex.Message}", now);
            }
            catch (OperationCanceledException) when (hardStop.IsCancellationRequested)
            {
                ledger.ConnectionFailed("a call still unanswered when the run was stopped (grace period over, or interrupted)");
                return;
            }
            catch (Exception ex) when (ex is JsonRpcConnectionLostException or TimeoutException or ObjectDisposedException)
            {
                ledger.ConnectionFailed($"call failed: {ex.Message}");
                return;
            }
        }
    }

    public override ValueTask DisposeAsync() => _client.DisposeAsync();
}
