using System.Text.Json;
using JsonRpc.Server.RouterProtocol;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server;

public sealed partial class JsonRpcRouter
{
    // Guards every change to who is registered, provides or subscribes to what. Routing itself reads without it.
    private readonly Lock _registryLock = new();

    internal Lock RegistryLock => _registryLock;
    private readonly Dictionary<string, RouterConnection> _clients = new(StringComparer.Ordinal);

    internal bool TryRegisterClient(RouterConnection connection, string name)
    {
        lock (_registryLock)
        {
            if (!_clients.TryAdd(name, connection))
            {
                return false;
            }

            connection.SetName(name);
            Interlocked.Increment(ref Counters.RegisteredClients);
            ClusterRegistryChanged(connection);
            return true;
        }
    }

    /// <summary>Whether clients may not use <paramref name="nameUtf8"/>: the router's own and the host's methods.</summary>
    internal bool IsReserved(ReadOnlySpan<byte> nameUtf8)
        => BuiltInMethods.Match(nameUtf8) != BuiltInMethod.None || JsonRpc.Protocol.JsonRpcProtocolMethods.IsReserved(nameUtf8)
            || IsHostMethod(nameUtf8);

    /// <summary>
    /// Adds the connection as a provider of the method, exclusively for its owner when <paramref name="exclusiveOwner"/>
    /// is given (then no other owner may provide it while the owner does). <paramref name="holder"/> describes who is in
    /// the way of a conflict.
    /// </summary>
    internal AddProviderResult TryAddProvider(RouterConnection connection, byte[] nameUtf8, string? exclusiveOwner, string owner, out string? holder)
    {
        holder = null;
        lock (_registryLock)
        {
            if (!HasRoomFor(connection, nameUtf8, provider: true))
            {
                return AddProviderResult.TooManyRoutes;
            }

            // Another node's registrations were checked there; this node only mirrors them.
            if (!connection.IsPeer && Routes.TryGetValue(nameUtf8, out var existing))
            {
                if (existing.ExclusiveOwner is { } held && held != owner)
                {
                    holder = "another identity";
                    return AddProviderResult.Conflict;
                }

                foreach (var other in existing.Providers)
                {
                    // Another node's providers: an exclusive claim there, or any other owner there when this one asks
                    // for exclusivity, is a conflict too (settled with what that node last announced).
                    if (other.IsPeer)
                    {
                        if (other.PeerOwners is { } owners && owners.TryGetValue(existing.Name, out var remote)
                            && ((remote.Exclusive is { } claim && claim != owner)
                                || (exclusiveOwner is not null && Array.Exists(remote.Owners, o => o != owner))))
                        {
                            holder = "another identity on another cluster node";
                            return AddProviderResult.Conflict;
                        }
                    }
                    else if (exclusiveOwner is not null && other != connection && other.OwnerKey != owner)
                    {
                        holder = "another identity";
                        return AddProviderResult.Conflict;
                    }
                }
            }

            var route = Routes.GetOrAdd(nameUtf8, 0, static (key, _) => new RouteEntry(key));
            if (exclusiveOwner is not null)
            {
                route.ExclusiveOwner = exclusiveOwner;
            }

            if (route.AddProvider(connection))
            {
                connection.Provided.Add(route);
                Interlocked.Increment(ref Counters.Providers);
                if (route.Providers.Length == 1)
                {
                    Interlocked.Increment(ref Counters.Methods);
                }

                ClusterRegistryChanged(connection);
            }

            return AddProviderResult.Added;
        }
    }

    // Under the registry lock. A name the connection already has takes no more room.
    private bool HasRoomFor(RouterConnection connection, byte[] nameUtf8, bool provider)
    {
        if (connection.Provided.Count + connection.Subscribed.Count < Options.MaxRoutesPerConnection || connection.IsPeer)
        {
            return true;
        }

        return Routes.TryGetValue(nameUtf8, out var route)
            && (provider ? route.Providers : route.Subscribers).AsSpan().Contains(connection);
    }

    internal bool RemoveProvider(RouterConnection connection, byte[] nameUtf8)
    {
        lock (_registryLock)
        {
            if (!Routes.TryGetValue(nameUtf8, out var route) || !RemoveProvider(connection, route))
            {
                return false;
            }

            connection.Provided.Remove(route);
            ClusterRegistryChanged(connection);
            return true;
        }
    }

    /// <summary>Adds the connection as a subscriber of the event; false when it may hold no more routes.</summary>
    internal bool TryAddSubscriber(RouterConnection connection, byte[] nameUtf8)
    {
        lock (_registryLock)
        {
            if (!HasRoomFor(connection, nameUtf8, provider: false))
            {
                return false;
            }

            var route = Routes.GetOrAdd(nameUtf8, 0, static (key, _) => new RouteEntry(key));
            if (route.AddSubscriber(connection))
            {
                connection.Subscribed.Add(route);
                Interlocked.Increment(ref Counters.Subscriptions);
                ClusterRegistryChanged(connection);
            }

            return true;
        }
    }

    internal bool RemoveSubscriber(RouterConnection connection, byte[] nameUtf8)
    {
        lock (_registryLock)
        {
            if (!Routes.TryGetValue(nameUtf8, out var route) || !RemoveSubscriber(connection, route))
            {
                return false;
            }

            connection.Subscribed.Remove(route);
            ClusterRegistryChanged(connection);
            return true;
        }
    }

    /// <summary>Forgets everything a closing connection registered.</summary>
    internal void Unregister(RouterConnection connection)
    {
        lock (_registryLock)
        {
            foreach (var route in connection.Provided)
            {
                RemoveProvider(connection, route);
            }

            foreach (var route in connection.Subscribed)
            {
                RemoveSubscriber(connection, route);
            }

            connection.Provided.Clear();
            connection.Subscribed.Clear();
            if (connection.Name is { } name && _clients.TryGetValue(name, out var holder) && holder == connection)
            {
                _clients.Remove(name);
                Interlocked.Decrement(ref Counters.RegisteredClients);
                ClusterRegistryChanged(connection);
            }
        }
    }

    // Under the registry lock.
    private bool RemoveProvider(RouterConnection connection, RouteEntry route)
    {
        if (!route.RemoveProvider(connection))
        {
            return false;
        }

        Interlocked.Decrement(ref Counters.Providers);
        if (route.Providers.Length == 0)
        {
            Interlocked.Decrement(ref Counters.Methods);
        }

        if (route.ExclusiveOwner is { } owner && !Array.Exists(route.Providers, p => p.OwnerKey == owner))
        {
            route.ExclusiveOwner = null; // its owner provides it no more: the name is free again
        }

        DropIfEmpty(route);
        return true;
    }

    // Under the registry lock.
    private bool RemoveSubscriber(RouterConnection connection, RouteEntry route)
    {
        if (!route.RemoveSubscriber(connection))
        {
            return false;
        }

        Interlocked.Decrement(ref Counters.Subscriptions);
        DropIfEmpty(route);
        return true;
    }

    private void DropIfEmpty(RouteEntry route)
    {
        if (route.IsEmpty)
        {
            Routes.Remove(route.NameUtf8, route);
        }
    }

    /// <summary>
    /// Writes the <c>list_methods</c> result: <c>[{"method":"add","providers":["calc-1","calc-2"]},
    /// {"method":"time","providers":[],"server":true}]</c>, sorted by method name.
    /// </summary>
    internal void WriteMethodList(Utf8JsonWriter writer, Security.RouterPrincipal? viewer)
    {
        var routes = new List<RouteEntry>();
        Routes.CopyValuesTo(routes);
        var entries = new List<(string Method, RouterConnection[]? Providers)>(routes.Count);
        foreach (var route in routes)
        {
            var providers = route.Providers;
            if (providers.Length > 0 && (viewer is null || viewer.Call.IsAllowed(route.NameUtf8, out _)))
            {
                entries.Add((route.Name, providers));
            }
        }

        AddHostMethodNames(entries);
        if (viewer is not null)
        {
            entries.RemoveAll(e => e.Providers is null && !viewer.Call.IsAllowed(e.Method, out _));
        }

        entries.Sort(static (a, b) => string.CompareOrdinal(a.Method, b.Method));

        writer.WriteStartArray();
        foreach (var (method, providers) in entries)
        {
            writer.WriteStartObject();
            writer.WriteString("method"u8, method);
            if (Cluster is { } cluster)
            {
                cluster.WriteProviders(writer, method, providers);
            }
            else
            {
                writer.WriteStartArray("providers"u8);
                foreach (var provider in providers ?? [])
                {
                    writer.WriteStringValue(provider.Name);
                }

                writer.WriteEndArray();
            }

            if (providers is null)
            {
                writer.WriteBoolean("server"u8, true);
            }

            writer.WriteEndObject();
        }

        writer.WriteEndArray();
    }

    /// <summary>Writes the <c>list_clients</c> result: the registered clients, sorted by name.</summary>
    internal void WriteClientList(Utf8JsonWriter writer, Security.RouterPrincipal? viewer)
    {
        List<(string Name, string? Remote, int Methods, int Subscriptions)> clients;
        lock (_registryLock)
        {
            clients = new(_clients.Count);
            foreach (var (name, connection) in _clients)
            {
                if (viewer is null || Visible(connection, viewer))
                {
                    clients.Add((name, connection.RemoteEndPoint, connection.Provided.Count, connection.Subscribed.Count));
                }
            }
        }

        clients.Sort(static (a, b) => string.CompareOrdinal(a.Name, b.Name));
        writer.WriteStartArray();
        foreach (var (name, remote, methods, subscriptions) in clients)
        {
            writer.WriteStartObject();
            writer.WriteString("name"u8, name);
            writer.WriteString("remote"u8, remote);
            writer.WriteNumber("methods"u8, methods);
            writer.WriteNumber("subscriptions"u8, subscriptions);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
    }

    // Under the registry lock: a client is visible to an identity that may call one of its methods, or is that identity.
    private static bool Visible(RouterConnection client, Security.RouterPrincipal viewer)
    {
        if (viewer.IsAuthenticated && client.Identity == viewer.Identity)
        {
            return true;
        }

        foreach (var route in client.Provided)
        {
            if (viewer.Call.IsAllowed(route.NameUtf8, out _))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// Writes the <c>get_server_stats</c> result: every counter, under snake_case names; with a security policy, the
    /// refusals by reason and the counters of each identity (a viewer that is not a monitor sees only its own).
    /// </summary>
    internal void WriteStats(Utf8JsonWriter writer, Security.RouterPrincipal? viewer)
    {
        var s = Counters.Snapshot();
        writer.WriteStartObject();
        writer.WriteNumber("connections"u8, s.Connections);
        writer.WriteNumber("connections_total"u8, s.ConnectionsTotal);
        writer.WriteNumber("connections_rejected"u8, s.ConnectionsRejected);
        writer.WriteNumber("registered_clients"u8, s.RegisteredClients);
        writer.WriteNumber("methods"u8, s.Methods);
        writer.WriteNumber("providers"u8, s.Providers);
        writer.WriteNumber("subscriptions"u8, s.Subscriptions);
        writer.WriteNumber("pending_calls"u8, s.PendingCalls);
        writer.WriteNumber("messages_in"u8, s.MessagesIn);
        writer.WriteNumber("messages_out"u8, s.MessagesOut);
        writer.WriteNumber("bytes_in"u8, s.BytesIn);
        writer.WriteNumber("bytes_out"u8, s.BytesOut);
        writer.WriteNumber("calls_routed"u8, s.CallsRouted);
        writer.WriteNumber("notifications_routed"u8, s.NotificationsRouted);
        writer.WriteNumber("events_published"u8, s.EventsPublished);
        writer.WriteNumber("events_delivered"u8, s.EventsDelivered);
        writer.WriteNumber("server_calls"u8, s.ServerCalls);
        writer.WriteNumber("errors"u8, s.Errors);
        writer.WriteNumber("timeouts"u8, s.Timeouts);
        writer.WriteNumber("answers_dropped"u8, s.AnswersDropped);
        writer.WriteNumber("cancels_forwarded"u8, s.CancelsForwarded);
        writer.WriteNumber("read_pauses"u8, s.ReadPauses);
        writer.WriteNumber("uptime_ms"u8, (long)s.Uptime.TotalMilliseconds);
        writer.WriteNumber("memory_held"u8, Memory.Held);
        writer.WriteNumber("memory_budget"u8, Memory.Max);
        writer.WriteNumber("memory_refusals"u8, MemoryRefusals);
        Cluster?.WriteStats(writer);
        if (Security is not null)
        {
            WriteSecurityStats(writer, viewer);
        }

        writer.WriteEndObject();
    }
}
