namespace JsonRpc.Server;

/// <summary>
/// A static token that authenticates an identity. Give the token itself, or better its SHA-256 hash in hex
/// (<c>printf %s "$TOKEN" | sha256sum</c>), so that the configuration holds no secret. Either way only the hash is kept
/// in memory, and a presented token is compared with every configured hash in constant time.
/// </summary>
public sealed class JsonRpcTokenIdentity
{
    /// <summary>The identity the token authenticates.</summary>
    public string Identity { get; set; } = "";

    /// <summary>The token.</summary>
    public string? Token { get; set; }

    /// <summary>The token's SHA-256 hash, 64 hex digits.</summary>
    public string? Sha256 { get; set; }

    /// <summary>Roles given to whoever presents the token, beside the identity's own.</summary>
    public IList<string> Roles { get; } = [];
}
