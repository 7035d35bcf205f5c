namespace JsonRpc.Client.Hosting;

/// <summary>The name of one <c>AddJsonRpcClient</c> (a singleton each), so that a target that names no such client is found at start.</summary>
internal sealed record HostedJsonRpcClientName(string Name);
