using Microsoft.Extensions.Logging;

namespace JsonRpc.Server.Cluster;

/// <summary>The cluster's structured log events, source-generated.</summary>
internal static partial class ClusterLog
{
    [LoggerMessage(101, LogLevel.Information, "Cluster node {Node} connected to NATS at {Url}.")]
    public static partial void Connected(ILogger logger, string node, string url);

    [LoggerMessage(102, LogLevel.Warning, "Cluster node {Node} lost NATS ({Reason}); calls to other nodes fail until it is back.")]
    public static partial void Disconnected(ILogger logger, string node, string reason);

    [LoggerMessage(103, LogLevel.Warning, "Cluster node {Node} could not reach NATS at {Url} within {Timeout} (not running or not reachable, or the TLS handshake failed: check nats_url and the nats_tls_* files); it serves alone and keeps trying.")]
    public static partial void ConnectTimedOut(ILogger logger, string node, string url, TimeSpan timeout);

    [LoggerMessage(104, LogLevel.Information, "Node {Peer} joined the cluster.")]
    public static partial void PeerJoined(ILogger logger, string peer);

    [LoggerMessage(105, LogLevel.Information, "Node {Peer} left the cluster: {Reason}.")]
    public static partial void PeerLeft(ILogger logger, string peer, string reason);

    [LoggerMessage(106, LogLevel.Warning, "Client name {Name} is held on node {Peer} since earlier; closing the local client.")]
    public static partial void NameConflict(ILogger logger, string name, string peer);

    [LoggerMessage(107, LogLevel.Warning, "Cluster message on {Subject} was ignored: {Reason}.")]
    public static partial void BadMessage(ILogger logger, string subject, string reason);

    [LoggerMessage(109, LogLevel.Error, "Cluster node {Node} could not connect to NATS at {Url}: {Reason}.")]
    public static partial void ConnectFailed(ILogger logger, string node, string url, string reason);

    [LoggerMessage(108, LogLevel.Error, "Cluster loop {Loop} failed.")]
    public static partial void LoopFailed(ILogger logger, string loop, Exception exception);
}
