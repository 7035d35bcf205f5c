using System.Text.Json.Serialization.Metadata;
using ModelContextProtocol;
using McpMessage = ModelContextProtocol.Protocol.JsonRpcMessage;

namespace JsonRpc.Benchmarks;

/// <summary>How the MCP C# SDK's own transports read and write messages: its source-generated default options.</summary>
internal static class McpSerializer
{
    public static JsonTypeInfo<McpMessage> Message { get; } =
        (JsonTypeInfo<McpMessage>)McpJsonUtilities.DefaultOptions.GetTypeInfo(typeof(McpMessage));
}
