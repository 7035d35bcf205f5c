namespace JsonRpc.Server.Routing;

/// <summary>Why the cluster refuses something: the JSON-RPC error to answer with.</summary>
internal sealed record ClusterRefusal(int Code, string Message, string Data);
