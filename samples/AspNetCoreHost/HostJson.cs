using System.Text.Json.Serialization;
using JsonRpc.Server;

namespace AspNetCoreHost;

/// <summary>Source-generated metadata for the HTTP endpoints and the host's own JSON-RPC method.</summary>
[JsonSerializable(typeof(JsonRpcRouterStats))]
[JsonSerializable(typeof(DateTimeOffset))]
[JsonSerializable(typeof(HealthReport))]
public sealed partial class HostJson : JsonSerializerContext;

/// <summary>What <c>/healthz</c> answers.</summary>
public sealed record HealthReport(string Status, long Connections, double UptimeSeconds);
