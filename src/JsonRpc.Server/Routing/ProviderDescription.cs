namespace JsonRpc.Server.Routing;

/// <summary>One provider of a method as <c>rpc.discover</c> lists it.</summary>
/// <param name="Client">The provider's client name.</param>
/// <param name="Node">Its cluster node, or null on a router alone.</param>
/// <param name="Description">The OpenRPC Method Object it registered the method with, or null.</param>
internal readonly record struct ProviderDescription(string Client, string? Node, byte[]? Description);
