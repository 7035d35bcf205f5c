using System.Buffers;
using System.Collections.Concurrent;
using System.Text.Json;
using JsonRpc.Server.Routing;
using Microsoft.Extensions.Logging;
using NATS.Client.Core;

namespace JsonRpc.Server.Cluster;

// What every node knows of the others: who is alive (heartbeats), and which clients, methods and events each holds
// (its registry, announced whole on every change under a version number, and fetched again by whoever missed one).
public sealed partial class JsonRpcCluster
{
    private readonly SemaphoreSlim _announce = new(0, 1);
    private readonly ConcurrentDictionary<string, long> _localSince = new(StringComparer.Ordinal);
    private long _version;
    private byte[] _lastClients = [];
    private static readonly Dictionary<string, byte[]> EmptyDescriptions = [];

    /// <summary>Asks the announcing loop to publish this node's registry (coalesced; never blocks).</summary>
    private void RequestAnnounce()
    {
        try
        {
            if (_announce.CurrentCount == 0)
            {
                _announce.Release();
            }
        }
        catch (SemaphoreFullException)
        {
            // Already asked.
        }
    }

    private async Task AnnounceLoopAsync()
    {
        var stopping = _stopping.Token;
        try
        {
            while (true)
            {
                await _announce.WaitAsync(stopping).ConfigureAwait(false);
                var clients = SnapshotClients();
                if (!clients.AsSpan().SequenceEqual(_lastClients))
                {
                    _lastClients = clients;
                    Interlocked.Increment(ref _version);
                }

                if (IsConnected)
                {
                    await PublishControlAsync("state", w =>
                    {
                        w.WriteNumber("version"u8, Volatile.Read(ref _version));
                        w.WritePropertyName("clients"u8);
                        w.WriteRawValue(_lastClients, skipInputValidation: true);
                    }).ConfigureAwait(false);
                }
            }
        }
        catch (OperationCanceledException) when (stopping.IsCancellationRequested)
        {
        }
        catch (Exception ex)
        {
            ClusterLog.LoopFailed(_logger, "announce", ex);
        }
    }

    /// <summary>This node's clients as JSON, with when each name was first seen here; revokes names held earlier elsewhere.</summary>
    private byte[] SnapshotClients()
    {
        var clients = _router.SnapshotLocalRegistry();
        var now = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        var names = new HashSet<string>(StringComparer.Ordinal);
        var buffer = new ArrayBufferWriter<byte>(256);
        using var w = new Utf8JsonWriter(buffer);
        w.WriteStartArray();
        foreach (var (name, owner, methods, events, exclusive, descriptions) in clients)
        {
            names.Add(name);
            var since = _localSince.GetOrAdd(name, now);
            if (HeldEarlierElsewhere(name, since) is { } holder)
            {
                ClusterLog.NameConflict(_logger, name, holder);
                _router.RevokeClientName(name, holder);
                continue;
            }

            w.WriteStartObject();
            w.WriteString("name"u8, name);
            w.WriteNumber("since"u8, since);
            WriteArray(w, "methods"u8, methods);
            WriteArray(w, "events"u8, events);

            // Connection owners are only unique on their node.
            w.WriteString("owner"u8, owner.StartsWith("connection:", StringComparison.Ordinal) ? owner + "@" + NodeName : owner);
            WriteArray(w, "exclusive"u8, exclusive);
            if (descriptions.Count > 0)
            {
                // Each as its provider sent it (a JSON object, checked at registration).
                w.WriteStartObject("descriptions"u8);
                foreach (var (method, description) in descriptions)
                {
                    w.WritePropertyName(method);
                    w.WriteRawValue(description, skipInputValidation: true);
                }

                w.WriteEndObject();
            }

            w.WriteEndObject();
        }

        w.WriteEndArray();
        w.Flush();
        foreach (var name in _localSince.Keys)
        {
            if (!names.Contains(name))
            {
                _localSince.TryRemove(name, out _);
            }
        }

        return buffer.WrittenSpan.ToArray();

        static void WriteArray(Utf8JsonWriter w, ReadOnlySpan<byte> property, string[] values)
        {
            w.WriteStartArray(property);
            foreach (var value in values)
            {
                w.WriteStringValue(value);
            }

            w.WriteEndArray();
        }
    }

    /// <summary>The node that holds <paramref name="name"/> by an earlier claim than this node's, if any.</summary>
    private string? HeldEarlierElsewhere(string name, long since)
    {
        foreach (var link in _peers.Values)
        {
            foreach (var client in link.Clients)
            {
                if (client.Name == name && (client.Since < since || (client.Since == since && string.CompareOrdinal(link.Node, NodeName) < 0)))
                {
                    return link.Node;
                }
            }
        }

        return null;
    }

    private async Task HeartbeatLoopAsync()
    {
        var stopping = _stopping.Token;
        using var timer = new PeriodicTimer(_options.HeartbeatInterval);
        var timeout = (long)_options.NodeTimeout.TotalMilliseconds;
        try
        {
            do
            {
                if (IsConnected)
                {
                    await PublishControlAsync("hb", w =>
                    {
                        w.WriteNumber("version"u8, Volatile.Read(ref _version));
                        w.WritePropertyName("stats"u8);
                        WriteOwnStats(w);
                    }).ConfigureAwait(false);
                }

                // Cut off from NATS, nothing is heard from anyone: the other nodes are kept (calls to them fail at once
                // with ClusterUnavailable) and judged again once NATS is back.
                var now = Environment.TickCount64;
                foreach (var link in IsConnected ? _peers.Values : [])
                {
                    if (now - link.LastSeen > timeout)
                    {
                        await DropPeerAsync(link.Node, $"not heard from for {timeout} ms", link).ConfigureAwait(false);
                    }
                }
            }
            while (await timer.WaitForNextTickAsync(stopping).ConfigureAwait(false));
        }
        catch (OperationCanceledException) when (stopping.IsCancellationRequested)
        {
        }
        catch (Exception ex)
        {
            ClusterLog.LoopFailed(_logger, "heartbeat", ex);
        }
    }

    /// <summary>Publishes <c>{"node":…,"inc":…,…}</c> on <c>{prefix}.ctl.{kind}</c>.</summary>
    private async ValueTask PublishControlAsync(string kind, Action<Utf8JsonWriter>? body)
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        using (var w = new Utf8JsonWriter(buffer))
        {
            w.WriteStartObject();
            w.WriteString("node"u8, NodeName);
            w.WriteNumber("inc"u8, Incarnation);
            body?.Invoke(w);
            w.WriteEndObject();
        }

        try
        {
            await _nats!.PublishAsync<ReadOnlyMemory<byte>>($"{_prefix}.ctl.{kind}", buffer.WrittenMemory, cancellationToken: _stopping.Token)
                .ConfigureAwait(false);
        }
        catch (NatsException)
        {
            // Disconnected meanwhile: the next heartbeat or announcement after reconnecting says it again.
        }
    }

    /// <summary>hello, hb (heartbeat), state, want (a node asks another for its state) and bye, from every node.</summary>
    private async Task ReceiveControlAsync(INatsSub<NatsMemoryOwner<byte>> subscription)
    {
        try
        {
            await foreach (var msg in subscription.Msgs.ReadAllAsync(_stopping.Token).ConfigureAwait(false))
            {
                using var data = msg.Data;
                try
                {
                    await HandleControlAsync(LastToken(msg.Subject), data.Memory).ConfigureAwait(false);
                }
                catch (Exception ex) when (ex is JsonException or InvalidOperationException or KeyNotFoundException or FormatException)
                {
                    ClusterLog.BadMessage(_logger, msg.Subject, ex.Message);
                }
            }
        }
        catch (OperationCanceledException) when (_stopping.IsCancellationRequested)
        {
        }
        catch (Exception ex)
        {
            ClusterLog.LoopFailed(_logger, "control", ex);
        }
    }

    private async ValueTask HandleControlAsync(string kind, ReadOnlyMemory<byte> data)
    {
        using var document = JsonDocument.Parse(data);
        var root = document.RootElement;
        var node = root.GetProperty("node"u8).GetString()!;
        var incarnation = root.GetProperty("inc"u8).GetInt64();
        if (node == NodeName)
        {
            if (incarnation != Incarnation)
            {
                ClusterLog.BadMessage(_logger, kind, $"another node is also named '{node}'; node names must be unique");
            }

            return;
        }

        if (!JsonRpcClusterConfiguration.IsToken(node))
        {
            throw new FormatException($"'{node}' is not a valid node name.");
        }

        switch (kind)
        {
            case "bye":
                await DropPeerAsync(node, "it left").ConfigureAwait(false);
                return;
            case "hello":
                GetOrAddPeer(node, incarnation).LastSeen = Environment.TickCount64;
                RequestAnnounce(); // so that the newcomer learns this node's registry at once
                return;
            case "want":
                if (root.GetProperty("target"u8).ValueEquals(NodeName))
                {
                    RequestAnnounce();
                }

                return;
            case "hb":
            {
                var link = GetOrAddPeer(node, incarnation);
                link.LastSeen = Environment.TickCount64;
                link.Stats = System.Text.Encoding.UTF8.GetBytes(root.GetProperty("stats"u8).GetRawText());
                if (root.GetProperty("version"u8).GetInt64() != link.Version)
                {
                    // A state announcement was missed (or this node is new): ask for it again.
                    await PublishControlAsync("want", w => w.WriteString("target"u8, node)).ConfigureAwait(false);
                }

                return;
            }

            case "state":
            {
                var link = GetOrAddPeer(node, incarnation);
                link.LastSeen = Environment.TickCount64;
                var version = root.GetProperty("version"u8).GetInt64();
                if (version <= link.Version)
                {
                    return;
                }

                ApplyState(link, version, root.GetProperty("clients"u8));
                return;
            }
        }
    }

    /// <summary>Makes the router route <paramref name="link"/>'s methods and events, and settles name conflicts.</summary>
    private void ApplyState(PeerLink link, long version, JsonElement clientsJson)
    {
        var clients = new List<RemoteClient>();
        var methods = new HashSet<string>(StringComparer.Ordinal);
        var events = new HashSet<string>(StringComparer.Ordinal);
        var owners = new Dictionary<string, PeerMethodOwners>(StringComparer.Ordinal);
        foreach (var item in clientsJson.EnumerateArray())
        {
            var name = item.GetProperty("name"u8).GetString()!;
            var client = new RemoteClient(
                name,
                item.GetProperty("since"u8).GetInt64(),
                Strings(item.GetProperty("methods"u8)),
                Strings(item.GetProperty("events"u8)),
                item.TryGetProperty("descriptions"u8, out var d) ? Descriptions(d) : EmptyDescriptions);
            clients.Add(client);
            methods.UnionWith(client.Methods);
            events.UnionWith(client.Events);

            // A node of an earlier version says nothing of owners: its clients own their registrations alone.
            var owner = item.TryGetProperty("owner"u8, out var o) ? o.GetString()! : "client:" + name + "@" + link.Node;
            var exclusive = item.TryGetProperty("exclusive"u8, out var x) ? Strings(x) : [];
            foreach (var method in client.Methods)
            {
                owners.TryGetValue(method, out var known);
                owners[method] = new PeerMethodOwners(
                    known is null ? [owner] : known.Owners.Contains(owner) ? known.Owners : [.. known.Owners, owner],
                    Array.IndexOf(exclusive, method) >= 0 ? owner : known?.Exclusive);
            }
        }

        link.Clients = [.. clients];
        link.Version = version;
        if (link.Connection is { } connection)
        {
            _router.SetPeerRoutes(connection, methods, events, owners);
        }

        foreach (var client in clients)
        {
            // The later claim of a name loses it (ties: the greater node name), on both nodes alike.
            if (_localSince.TryGetValue(client.Name, out var since)
                && (client.Since < since || (client.Since == since && string.CompareOrdinal(link.Node, NodeName) < 0)))
            {
                ClusterLog.NameConflict(_logger, client.Name, link.Node);
                _router.RevokeClientName(client.Name, link.Node);
            }
        }

        static Dictionary<string, byte[]> Descriptions(JsonElement map)
        {
            var descriptions = new Dictionary<string, byte[]>(StringComparer.Ordinal);
            foreach (var property in map.EnumerateObject())
            {
                if (property.Value.ValueKind == JsonValueKind.Object)
                {
                    descriptions[property.Name] = System.Text.Encoding.UTF8.GetBytes(property.Value.GetRawText());
                }
            }

            return descriptions;
        }

        static string[] Strings(JsonElement array)
        {
            var values = new string[array.GetArrayLength()];
            var i = 0;
            foreach (var value in array.EnumerateArray())
            {
                values[i++] = value.GetString()!;
            }

            return values;
        }
    }
}
