using System.Text.Json.Serialization;
using JsonRpc.Server;

namespace AspNetCoreHost;

/// <summary>Source-generated metadata for the HTTP endpoints and the host's own JSON-RPC methods.</summary>
[JsonSerializable(typeof(JsonRpcRouterStats))]
[JsonSerializable(typeof(DateTimeOffset))]
[JsonSerializable(typeof(string))]
public sealed partial class HostJson : JsonSerializerContext;
