namespace JsonRpc.Server.Routing;

/// <summary>A client registered on this node, as the cluster announces it to the others.</summary>
/// <param name="Name">Its name, unique in the cluster.</param>
/// <param name="Owner">Who owns its registrations: <c>identity:NAME</c>, or <c>connection:ID</c> without authentication.</param>
/// <param name="Methods">The methods it provides.</param>
/// <param name="Events">The events it subscribes to.</param>
/// <param name="Exclusive">The methods it provides exclusively for its owner.</param>
/// <param name="Descriptions">The OpenRPC descriptions it registered methods with, by method.</param>
internal sealed record LocalClient(string Name, string Owner, string[] Methods, string[] Events, string[] Exclusive, IReadOnlyDictionary<string, byte[]> Descriptions);

/// <summary>Who provides one method on another node: the owners of its providers there, and the exclusive owner if any.</summary>
internal sealed record PeerMethodOwners(string[] Owners, string? Exclusive);
