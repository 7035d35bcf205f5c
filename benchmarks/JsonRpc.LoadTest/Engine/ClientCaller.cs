using System.Diagnostics;
using System.Net;
using JsonRpc.Client;
using JsonRpc.Protocol;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// A caller connection through the project's <see cref="JsonRpcClient"/>, as an application would make calls: one
/// client per connection, and as many concurrent call loops ("lanes") on it as the window, each awaiting
/// <see cref="JsonRpcClient.CallAsync(string, RawJson, CancellationToken)"/> with the payload as raw JSON params and
/// checking the raw result. Each lane has its own ledger; a lane's payloads carry its number, so an answer delivered
/// to the wrong lane is a mismatch. The client matches answers to calls itself, so duplicates cannot surface here.
/// </summary>
internal sealed class ClientCaller : ICaller
{
    // Lane l stamps call n as l * LaneStride + n, so that lanes never share a payload.
    private const long LaneStride = 1_000_000_000;
    private readonly JsonRpcClient _client;
    private readonly CallLedger[] _lanes;
    private readonly EchoPayload _payload;
    private readonly RunClock _clock;

    private ClientCaller(JsonRpcClient client, EchoPayload payload, int window, RunClock clock)
    {
        _client = client;
        _payload = payload;
        _clock = clock;
        _lanes = new CallLedger[window];
        for (var lane = 0; lane < window; lane++)
        {
            _lanes[lane] = new CallLedger(1, payload, clock);
        }
    }

    public IReadOnlyList<CallLedger> Ledgers => _lanes;

    public static async Task<Func<RunClock, ICaller>> ConnectAsync(EndPoint endPoint, EchoPayload payload, int window, CancellationToken cancellationToken)
    {
        var client = await ClientConnections.ConnectAsync(endPoint, payload.Size, cancellationToken).ConfigureAwait(false);
        return clock => new ClientCaller(client, payload, window, clock);
    }

    public Task RunAsync(CancellationToken hardStop)
    {
        var lanes = new Task[_lanes.Length];
        for (var lane = 0; lane < lanes.Length; lane++)
        {
            lanes[lane] = RunLaneAsync(lane, hardStop);
        }

        return Task.WhenAll(lanes);
    }

    private async Task RunLaneAsync(int lane, CancellationToken hardStop)
    {
        await Task.Yield();
        var ledger = _lanes[lane];
        var size = _payload.Size;
        var parameters = new byte[size + 4];
        "[\""u8.CopyTo(parameters);
        "\"]"u8.CopyTo(parameters.AsSpan(size + 2));
        while (_clock.IsSending(Stopwatch.GetTimestamp()) && ledger.TryBegin(out var id))
        {
            var stamp = (lane * LaneStride) + id;
            _payload.WriteString(parameters.AsSpan(2, size), stamp);
            try
            {
                var result = await _client.CallAsync(EchoPayload.Method, RawJson.FromUtf8(parameters), hardStop).ConfigureAwait(false);
                ledger.Answer(id, _payload.IsEcho(result.Span, stamp), Stopwatch.GetTimestamp());
            }
            catch (JsonRpcRemoteException ex)
            {
                ledger.Error(id, $"error {ex.Code}: {ex.Message}", Stopwatch.GetTimestamp());
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

    public ValueTask DisposeAsync() => _client.DisposeAsync();
}
