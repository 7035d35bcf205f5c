using System.Text.Json;
using JsonRpc.Buffers;
using JsonRpc.Contracts;
using JsonRpc.Serialization;

namespace JsonRpc.Dispatch;

/// <summary>
/// Sends the events of a dispatcher's targets to every connection it serves (<see cref="JsonRpcDispatcher.ServeAsync"/>):
/// each gets the notification through its <see cref="JsonRpcPeerChannel"/>, which drops it when that peer is backed up.
/// </summary>
internal sealed class PeerEventSender : JsonRpcEventSender
{
    private readonly Lock _gate = new();
    private JsonRpcPeerChannel[] _peers = [];

    public int Count => Volatile.Read(ref _peers).Length;

    public void Add(JsonRpcPeerChannel peer)
    {
        lock (_gate)
        {
            _peers = [.. _peers, peer];
        }
    }

    public void Remove(JsonRpcPeerChannel peer)
    {
        lock (_gate)
        {
            var index = Array.IndexOf(_peers, peer);
            if (index >= 0)
            {
                _peers = [.. _peers.AsSpan(0, index), .. _peers.AsSpan(index + 1)];
            }
        }
    }

    public override void Send(string eventName, ReadOnlySpan<byte> @params)
    {
        var peers = Volatile.Read(ref _peers);
        if (peers.Length == 0)
        {
            return;
        }

        using var buffer = new PooledBufferWriter();
        using (var writer = new Utf8JsonWriter(buffer, JsonRpcMessageWriter.WriterOptions))
        {
            writer.WriteStartObject();
            writer.WriteString("jsonrpc"u8, "2.0"u8);
            writer.WriteString("method"u8, eventName);
            writer.WritePropertyName("params"u8);
            writer.WriteRawValue(@params, skipInputValidation: true);
            writer.WriteEndObject();
        }

        foreach (var peer in peers)
        {
            peer.TrySend(buffer.WrittenSpan);
        }
    }
}
