namespace JsonRpc.Server;

/// <summary>
/// A TLS client certificate mapped to an identity: pinned by its SHA-1 or SHA-256 thumbprint (hex), or by its subject
/// (<c>CN=billing, O=Example</c>) when it chains to <see cref="JsonRpcSecurityOptions.ClientCertificateCaFile"/>.
/// </summary>
public sealed class JsonRpcCertificateIdentity
{
    /// <summary>The identity the certificate authenticates.</summary>
    public string Identity { get; set; } = "";

    /// <summary>The certificate's thumbprint (SHA-1, 40 hex digits, or SHA-256, 64).</summary>
    public string? Thumbprint { get; set; }

    /// <summary>The certificate's subject distinguished name, as .NET writes it (<c>CN=billing, O=Example</c>).</summary>
    public string? Subject { get; set; }

    /// <summary>Roles given to the certificate's holder, beside the identity's own.</summary>
    public IList<string> Roles { get; } = [];
}
