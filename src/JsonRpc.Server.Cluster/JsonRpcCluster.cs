using System.Buffers;
using System.Collections.Concurrent;
using System.Security.Cryptography;
using JsonRpc.Serialization;
using JsonRpc.Server.Routing;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using NATS.Client.Core;

namespace JsonRpc.Server.Cluster;

/// <summary>
/// Makes a <see cref="JsonRpcRouter"/> one node of a cluster of routers joined through NATS: a client on any node
/// calls methods provided on any node (a local provider first), events reach subscribers on every node once, and
/// client names, methods and subscriptions are known on every node. Each other node appears to the local router as one
/// connection that provides that node's methods; see the package README for the subjects and the failure behaviour.
/// </summary>
public sealed partial class JsonRpcCluster : IAsyncDisposable
{
    private readonly JsonRpcRouter _router;
    private readonly JsonRpcClusterOptions _options;
    private readonly ILogger _logger;
    private readonly ILoggerFactory _loggerFactory;
    private readonly ConcurrentDictionary<string, PeerLink> _peers = new(StringComparer.Ordinal);
    private readonly CancellationTokenSource _stopping = new();
    private readonly List<Task> _loops = [];
    private readonly string _prefix;
    private readonly string _noRespondersSubject;
    private readonly string _shownUrl;
    private NatsConnection? _nats;
    private volatile string? _lastServerError;
    private TaskCompletionSource? _ready;
    private int _started;
    private int _disposed;

    /// <summary>Joins <paramref name="router"/> to the cluster that <paramref name="options"/> name; call <see cref="StartAsync"/>.</summary>
    /// <exception cref="ArgumentException">The options cannot work; the message says why.</exception>
    public JsonRpcCluster(JsonRpcRouter router, JsonRpcClusterOptions options, ILoggerFactory? loggerFactory = null)
    {
        ArgumentNullException.ThrowIfNull(router);
        ArgumentNullException.ThrowIfNull(options);
        if (!options.IsEnabled)
        {
            throw new ArgumentException("NatsUrl is required to join a cluster.", nameof(options));
        }

        if (JsonRpcClusterConfiguration.Validate(options) is { } problem)
        {
            throw new ArgumentException(problem, nameof(options));
        }

        _router = router;
        _options = options;
        _loggerFactory = loggerFactory ?? NullLoggerFactory.Instance;
        _logger = _loggerFactory.CreateLogger<JsonRpcCluster>();
        NodeName = options.NodeName ?? DefaultNodeName(router.Options.Port);
        _prefix = options.SubjectPrefix;
        _noRespondersSubject = $"{_prefix}.nr.{NodeName}";
        _shownUrl = WithoutPasswords(options.NatsUrl!);
        Incarnation = RandomNumberGenerator.GetInt32(1, int.MaxValue) * (long)uint.MaxValue + Environment.TickCount64 % uint.MaxValue;
    }

    /// <summary>This node's name in the cluster.</summary>
    public string NodeName { get; }

    /// <summary>Whether the node is connected to NATS now.</summary>
    public bool IsConnected => _nats?.ConnectionState == NatsConnectionState.Open;

    /// <summary>The other nodes this node knows to be alive, by name.</summary>
    public IReadOnlyCollection<string> Nodes => [.. _peers.Keys];

    /// <summary>The client port of the NATS server this node is connected to now (tests: which server it failed over to).</summary>
    internal int? ServerPort => IsConnected ? _nats?.ServerInfo?.Port : null;

    /// <summary>Tells this run of the node apart from an earlier one under the same name.</summary>
    internal long Incarnation { get; }

    /// <summary>The default node name: the host name and the router's port, as one subject token.</summary>
    public static string DefaultNodeName(int port)
    {
        var host = Environment.MachineName;
        var chars = host.ToCharArray();
        for (var i = 0; i < chars.Length; i++)
        {
            if (!(char.IsAsciiLetterOrDigit(chars[i]) || chars[i] is '-' or '_'))
            {
                chars[i] = '-';
            }
        }

        return new string(chars) + ":" + port.ToString(System.Globalization.CultureInfo.InvariantCulture);
    }

    /// <summary>
    /// Connects to NATS, starts announcing this node and hooks the cluster into the router. Waits up to
    /// <see cref="JsonRpcClusterOptions.ConnectTimeout"/> for NATS; past it the router serves alone and the cluster
    /// keeps trying in the background.
    /// </summary>
    /// <exception cref="InvalidOperationException">
    /// NATS refused this node's credentials (within the wait); the message gives the server's reason. The node stays
    /// out of the cluster: dispose it, correct the settings and start again.
    /// </exception>
    public async Task StartAsync(CancellationToken cancellationToken = default)
    {
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);
        if (Interlocked.Exchange(ref _started, 1) != 0)
        {
            throw new InvalidOperationException("The cluster has already started.");
        }

        _nats = new NatsConnection(CreateNatsOptions());
        _nats.ConnectionOpened += OnConnectionOpenedAsync;
        _nats.ConnectionDisconnected += OnConnectionDisconnectedAsync;
        _nats.ServerError += OnServerErrorAsync;
        _router.Cluster = this;

        var ready = _ready = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        _loops.Add(RunAsync(ready));
        try
        {
            await ready.Task.WaitAsync(_options.ConnectTimeout, cancellationToken).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            ClusterLog.ConnectTimedOut(_logger, NodeName, _shownUrl, _options.ConnectTimeout);

            // A refusal later on is logged; nobody waits for it any more.
            _ = ready.Task.ContinueWith(static t => _ = t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
        }
    }

    private NatsOpts CreateNatsOptions()
    {
        var tls = _options.NatsTls || _options.NatsTlsCaFile is not null || _options.NatsTlsCertFile is not null;
        var opts = NatsOpts.Default with
        {
            Url = _options.NatsUrl!,
            Name = "jsonrpc-router " + NodeName,
            LoggerFactory = new NatsLogThrottle(_loggerFactory, TimeProvider.System),
            RetryOnInitialConnect = true,
            // A refusal while starting fails the start (OnServerErrorAsync); once running, a node keeps trying, so that
            // credentials corrected on the server (a rotation gone wrong, say) let it back in without a restart.
            IgnoreAuthErrorAbort = true,
            MaxReconnectRetry = -1,
            ReconnectWaitMin = TimeSpan.FromMilliseconds(100),
            ReconnectWaitMax = TimeSpan.FromSeconds(2),
            ReconnectJitter = TimeSpan.FromMilliseconds(100),
            PingInterval = _options.NodeTimeout,
            // A full subscription waits rather than drops: a dropped message would be a lost call or event.
            SubPendingChannelCapacity = 64 * 1024,
            SubPendingChannelFullMode = System.Threading.Channels.BoundedChannelFullMode.Wait,
            AuthOpts = NatsAuthOpts.Default with
            {
                Username = _options.NatsUser,
                Password = _options.NatsPassword,
                Token = _options.NatsToken,
                CredsFile = _options.NatsCredsFile,
            },
            TlsOpts = new NatsTlsOpts
            {
                Mode = tls ? TlsMode.Require : TlsMode.Auto,
                CaFile = _options.NatsTlsCaFile,
                CertFile = _options.NatsTlsCertFile,
                KeyFile = _options.NatsTlsKeyFile,
            },
        };
        if (_options.NatsNKeyFile is { } nkeyFile)
        {
            var (seed, publicKey) = ReadNKeyFile(nkeyFile);
            opts = opts with { AuthOpts = opts.AuthOpts with { Seed = seed, NKey = publicKey } };
        }

        return _options.ConfigureNats?.Invoke(opts) ?? opts;
    }

    /// <summary>
    /// Reads a user's NKey file: the seed (<c>SU…</c>) alone, as <c>nk -gen user</c> writes it, or with the public key
    /// (<c>U…</c>) on a line of its own. NATS.Net itself takes only the second form; the first gets the public key from
    /// the seed.
    /// </summary>
    /// <exception cref="InvalidOperationException">The file cannot be read or holds no user seed.</exception>
    internal static (string Seed, string PublicKey) ReadNKeyFile(string path)
    {
        string[] lines;
        try
        {
            lines = File.ReadAllLines(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new InvalidOperationException($"nats_nkey_file '{path}' cannot be read: {ex.Message}", ex);
        }

        string? seed = null, publicKey = null;
        foreach (var raw in lines)
        {
            var line = raw.Trim();
            if (line.StartsWith("SU", StringComparison.Ordinal))
            {
                seed = line;
            }
            else if (line.StartsWith('U'))
            {
                publicKey = line;
            }
        }

        if (seed is null)
        {
            throw new InvalidOperationException($"nats_nkey_file '{path}' holds no user seed (a line starting with SU).");
        }

        try
        {
            using var pair = NATS.NKeys.KeyPair.FromSeed(seed);
            return (seed, publicKey ?? pair.GetPublicKey());
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            throw new InvalidOperationException($"nats_nkey_file '{path}' holds a seed that is not a valid NKey seed: {ex.Message}", ex);
        }
    }

    /// <summary>The subject messages for <paramref name="node"/> from this node are published on.</summary>
    internal string MessageSubject(string node) => $"{_prefix}.msg.{node}.{NodeName}";

    private async Task RunAsync(TaskCompletionSource ready)
    {
        var nats = _nats!;
        var stopping = _stopping.Token;
        try
        {
            await nats.ConnectAsync().AsTask().WaitAsync(stopping).ConfigureAwait(false);

            // Every subscription is in place before this node first speaks, so no answer to it can be missed.
            var messages = await nats.SubscribeCoreAsync<NatsMemoryOwner<byte>>($"{_prefix}.msg.{NodeName}.*", cancellationToken: stopping).ConfigureAwait(false);
            var noResponders = await nats.SubscribeCoreAsync<NatsMemoryOwner<byte>>(_noRespondersSubject + ".*", cancellationToken: stopping).ConfigureAwait(false);
            var control = await nats.SubscribeCoreAsync<NatsMemoryOwner<byte>>($"{_prefix}.ctl.*", cancellationToken: stopping).ConfigureAwait(false);
            lock (_loops)
            {
                _loops.Add(ReceiveMessagesAsync(messages));
                _loops.Add(ReceiveNoRespondersAsync(noResponders));
                _loops.Add(ReceiveControlAsync(control));
                _loops.Add(HeartbeatLoopAsync());
                _loops.Add(AnnounceLoopAsync());
            }

            ClusterLog.Connected(_logger, NodeName, _shownUrl);
            await PublishControlAsync("hello", null).ConfigureAwait(false);
            RequestAnnounce();
            ready.TrySetResult();
        }
        catch (OperationCanceledException) when (stopping.IsCancellationRequested)
        {
            ready.TrySetCanceled(stopping);
        }
        catch (NatsException ex)
        {
            // What retrying cannot fix, such as a credentials file that cannot be read.
            FailStart(ready, _lastServerError is { } refusal ? Refused(refusal) : ex.Message, ex);
        }
        catch (Exception ex)
        {
            ClusterLog.LoopFailed(_logger, "connect", ex);
            ready.TrySetException(ex);
        }
    }

    /// <summary>
    /// The server refusing this node's credentials while it starts is a setting to correct, not a condition to wait
    /// out: starting fails with what NATS said. Later refusals only log (NATS.Net's own warnings) while it keeps trying.
    /// </summary>
    private ValueTask OnServerErrorAsync(object? sender, NatsServerErrorEventArgs args)
    {
        _lastServerError = args.Error;
        if (args.Error.Contains("Authorization Violation", StringComparison.OrdinalIgnoreCase) && _ready is { Task.IsCompleted: false } ready)
        {
            FailStart(ready, Refused(args.Error), null);
        }

        return ValueTask.CompletedTask;
    }

    private static string Refused(string serverError)
        => $"the server refused it ({serverError}); check nats_user and nats_password, nats_token, nats_nkey_file or nats_creds_file";

    private void FailStart(TaskCompletionSource ready, string reason, Exception? inner)
    {
        if (!ready.Task.IsCompleted)
        {
            ClusterLog.ConnectFailed(_logger, NodeName, _shownUrl, reason);
            ready.TrySetException(new InvalidOperationException($"Cluster node '{NodeName}' could not connect to NATS at {_shownUrl}: {reason}.", inner));
        }
    }

    /// <summary>Messages from other nodes: handed to each node's link in the order they came.</summary>
    private async Task ReceiveMessagesAsync(INatsSub<NatsMemoryOwner<byte>> subscription)
    {
        try
        {
            await foreach (var msg in subscription.Msgs.ReadAllAsync(_stopping.Token).ConfigureAwait(false))
            {
                using var data = msg.Data;
                var node = LastToken(msg.Subject);
                if (node == NodeName || data.Length == 0)
                {
                    continue;
                }

                var link = GetOrAddPeer(node, incarnation: 0);
                await link.DeliverAsync(new ReadOnlySequence<byte>(data.Memory)).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (_stopping.IsCancellationRequested)
        {
        }
        catch (Exception ex)
        {
            ClusterLog.LoopFailed(_logger, "messages", ex);
        }
    }

    /// <summary>
    /// NATS answers a message to a node that has no subscription any more with "no responders": the node is gone
    /// (killed, or cut off), so it is dropped at once rather than after <see cref="JsonRpcClusterOptions.NodeTimeout"/>.
    /// </summary>
    private async Task ReceiveNoRespondersAsync(INatsSub<NatsMemoryOwner<byte>> subscription)
    {
        try
        {
            await foreach (var msg in subscription.Msgs.ReadAllAsync(_stopping.Token).ConfigureAwait(false))
            {
                msg.Data.Dispose();
                if (msg.HasNoResponders)
                {
                    await DropPeerAsync(LastToken(msg.Subject), "no subscriber on NATS (the node is gone)").ConfigureAwait(false);
                }
            }
        }
        catch (OperationCanceledException) when (_stopping.IsCancellationRequested)
        {
        }
        catch (Exception ex)
        {
            ClusterLog.LoopFailed(_logger, "no-responders", ex);
        }
    }

    /// <summary>Publishes one message the router sent to a node; a call that cannot be sent is answered with an error.</summary>
    internal async ValueTask SendAsync(PeerLink link, ReadOnlySequence<byte> message)
    {
        var nats = _nats;
        string? problem = null;
        if (nats is null || nats.ConnectionState != NatsConnectionState.Open)
        {
            problem = $"NATS is unreachable, so node '{link.Node}' cannot be reached.";
        }
        else
        {
            try
            {
                await nats.PublishAsync(link.SendSubject, message, replyTo: _noRespondersSubject + "." + link.Node, cancellationToken: _stopping.Token)
                    .ConfigureAwait(false);
                return;
            }
            catch (Exception ex) when (ex is NatsException or OperationCanceledException or ObjectDisposedException)
            {
                problem = $"The call could not be sent to node '{link.Node}': {ex.Message}";
            }
        }

        await FailIfCallAsync(link, message, problem).ConfigureAwait(false);
    }

    private static async ValueTask FailIfCallAsync(PeerLink link, ReadOnlySequence<byte> message, string problem)
    {
        var bytes = message.ToArray();
        if (JsonRpcMessageReader.TryRead(bytes, out var info, out _) && info.Kind == JsonRpc.Protocol.JsonRpcMessageKind.Request)
        {
            await link.FailCallAsync(bytes.AsSpan(info.IdToken).ToArray(), RouterErrorCodes.ClusterUnavailable, "Cluster unavailable", problem)
                .ConfigureAwait(false);
        }
    }

    internal void PumpFailed(PeerLink link, Exception exception) => ClusterLog.LoopFailed(_logger, "pump " + link.Node, exception);

    private PeerLink GetOrAddPeer(string node, long incarnation)
    {
        if (_peers.TryGetValue(node, out var link) && (incarnation == 0 || link.Incarnation == incarnation || link.TryAdopt(incarnation)))
        {
            return link;
        }

        if (link is not null)
        {
            // The node restarted under the same name: whatever waited on its earlier run will never be answered.
            _ = DropPeerAsync(node, "it restarted", link);
        }

        lock (_peers)
        {
            if (_peers.TryGetValue(node, out var other) && other != link)
            {
                return other;
            }

            link = new PeerLink(this, node, incarnation);
            link.Start(_router);
            _peers[node] = link;
        }

        ClusterLog.PeerJoined(_logger, node);
        return link;
    }

    private async Task DropPeerAsync(string node, string reason, PeerLink? only = null)
    {
        PeerLink? link;
        lock (_peers)
        {
            if (!_peers.TryGetValue(node, out link) || (only is not null && link != only))
            {
                return;
            }

            _peers.TryRemove(node, out _);
        }

        ClusterLog.PeerLeft(_logger, node, reason);
        await link.CloseAsync().ConfigureAwait(false);
    }

    private ValueTask OnConnectionOpenedAsync(object? sender, NatsEventArgs args)
    {
        if (Volatile.Read(ref _started) != 0 && _loops.Count > 1)
        {
            ClusterLog.Connected(_logger, NodeName, _shownUrl);
            var now = Environment.TickCount64;
            foreach (var link in _peers.Values)
            {
                link.LastSeen = now; // unheard while this node was away: give each its full timeout again
            }

            RequestAnnounce(); // the others may have dropped this node while it was away
        }

        return ValueTask.CompletedTask;
    }

    private async ValueTask OnConnectionDisconnectedAsync(object? sender, NatsEventArgs args)
    {
        if (_stopping.IsCancellationRequested)
        {
            return;
        }

        // The answers to calls already sent are lost with the connection: fail them now rather than at their timeout.
        // The nodes themselves stay, so that calls to their methods fail with a clear ClusterUnavailable (not "method
        // not found") until NATS is back; then heartbeats tell which are still alive.
        ClusterLog.Disconnected(_logger, NodeName, args.Message);
        foreach (var link in _peers.Values)
        {
            link.Connection?.FailInFlight(close: false, shuttingDown: false);
        }

        await Task.CompletedTask.ConfigureAwait(false);
    }

    /// <summary>The NATS URLs as logs and errors may show them: a user and password in a URL become <c>***</c>.</summary>
    internal static string WithoutPasswords(string urls)
    {
        var parts = urls.Split(',');
        for (var i = 0; i < parts.Length; i++)
        {
            var url = parts[i].Trim();
            var scheme = url.IndexOf("://", StringComparison.Ordinal);
            var at = url.LastIndexOf('@');
            parts[i] = at > scheme ? url[..(scheme < 0 ? 0 : scheme + 3)] + "***" + url[at..] : url;
        }

        return string.Join(",", parts);
    }

    private static string LastToken(string subject) => subject[(subject.LastIndexOf('.') + 1)..];

    /// <summary>Leaves the cluster: tells the others, closes every link (failing the calls on them) and NATS.</summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        if (_router.Cluster == this)
        {
            _router.Cluster = null;
        }

        if (IsConnected)
        {
            try
            {
                await PublishControlAsync("bye", null).AsTask().WaitAsync(TimeSpan.FromSeconds(1)).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is NatsException or TimeoutException or OperationCanceledException)
            {
                // The others drop this node after NodeTimeout instead.
            }
        }

        await _stopping.CancelAsync().ConfigureAwait(false);
        foreach (var node in _peers.Keys)
        {
            await DropPeerAsync(node, "this node is leaving").ConfigureAwait(false);
        }

        Task[] loops;
        lock (_loops)
        {
            loops = [.. _loops];
        }

        try
        {
            await Task.WhenAll(loops).WaitAsync(TimeSpan.FromSeconds(5)).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is TimeoutException or OperationCanceledException)
        {
            // A loop stuck in NATS ends with the connection below.
        }

        if (_nats is { } nats)
        {
            nats.ConnectionOpened -= OnConnectionOpenedAsync;
            nats.ConnectionDisconnected -= OnConnectionDisconnectedAsync;
            nats.ServerError -= OnServerErrorAsync;
            await nats.DisposeAsync().ConfigureAwait(false);
        }

        _stopping.Dispose();
    }
}
