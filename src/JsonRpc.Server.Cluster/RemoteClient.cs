namespace JsonRpc.Server.Cluster;

/// <summary>A client registered on another node, as that node last announced it.</summary>
/// <param name="Name">Its name, unique in the cluster.</param>
/// <param name="Since">When the node granted the name (Unix milliseconds): the earlier claim wins a conflict.</param>
/// <param name="Methods">The methods it provides.</param>
/// <param name="Events">The events it subscribes to.</param>
/// <param name="Descriptions">The OpenRPC descriptions it registered methods with, by method.</param>
internal sealed record RemoteClient(string Name, long Since, string[] Methods, string[] Events, IReadOnlyDictionary<string, byte[]> Descriptions);
