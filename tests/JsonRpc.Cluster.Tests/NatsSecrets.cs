using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace JsonRpc.Cluster.Tests;

/// <summary>
/// A temporary folder of what a secured nats-server and its clients need, made fresh for each test: a certificate
/// authority, a server certificate for 127.0.0.1 and a client certificate issued by it, a second authority that issued
/// nothing the server uses, all as PEM files, and nats-server configuration files. Deleted on dispose.
/// </summary>
internal sealed class NatsSecrets : IDisposable
{
    private NatsSecrets(string folder) => Folder = folder;

    public string Folder { get; }

    /// <summary>The authority that issued the server's and the client's certificates.</summary>
    public string CaFile => Path.Combine(Folder, "ca.pem");

    /// <summary>An authority of its own, which issued none of them.</summary>
    public string OtherCaFile => Path.Combine(Folder, "other-ca.pem");

    public string ServerCertFile => Path.Combine(Folder, "server.pem");

    public string ServerKeyFile => Path.Combine(Folder, "server-key.pem");

    public string ClientCertFile => Path.Combine(Folder, "client.pem");

    public string ClientKeyFile => Path.Combine(Folder, "client-key.pem");

    public static NatsSecrets Create()
    {
        var secrets = new NatsSecrets(Directory.CreateTempSubdirectory("jsonrpc-nats-").FullName);
        var notBefore = DateTimeOffset.UtcNow.AddHours(-1);
        var notAfter = DateTimeOffset.UtcNow.AddDays(1);
        using var ca = CreateAuthority("CN=JsonRpc test CA", notBefore, notAfter);
        File.WriteAllText(secrets.CaFile, ca.ExportCertificatePem());
        using (var other = CreateAuthority("CN=Some other CA", notBefore, notAfter))
        {
            File.WriteAllText(secrets.OtherCaFile, other.ExportCertificatePem());
        }

        var san = new SubjectAlternativeNameBuilder();
        san.AddIpAddress(IPAddress.Loopback);
        san.AddDnsName("localhost");
        Issue(ca, "CN=127.0.0.1", new Oid("1.3.6.1.5.5.7.3.1"), san, secrets.ServerCertFile, secrets.ServerKeyFile, notBefore, notAfter);
        Issue(ca, "CN=jsonrpc-router", new Oid("1.3.6.1.5.5.7.3.2"), null, secrets.ClientCertFile, secrets.ClientKeyFile, notBefore, notAfter);
        return secrets;
    }

    /// <summary>Writes a nats-server configuration file into the folder and returns the arguments that load it.</summary>
    public string[] Config(string text)
    {
        var path = Path.Combine(Folder, $"nats-{Guid.NewGuid():N}.conf");
        File.WriteAllText(path, text);
        return ["-c", path];
    }

    /// <summary>The <c>tls { … }</c> block of a nats-server configuration with this folder's server certificate.</summary>
    public string TlsBlock(bool verifyClients) => $$"""
        tls {
          cert_file: "{{ServerCertFile}}"
          key_file: "{{ServerKeyFile}}"
          ca_file: "{{CaFile}}"
          verify: {{(verifyClients ? "true" : "false")}}
          timeout: 5
        }
        """;

    public void Dispose()
    {
        try
        {
            Directory.Delete(Folder, recursive: true);
        }
        catch (IOException)
        {
            // Left to the system's temporary-file cleanup.
        }
    }

    private static X509Certificate2 CreateAuthority(string subject, DateTimeOffset notBefore, DateTimeOffset notAfter)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign | X509KeyUsageFlags.CrlSign, true));
        request.CertificateExtensions.Add(new X509SubjectKeyIdentifierExtension(request.PublicKey, false));
        return request.CreateSelfSigned(notBefore, notAfter);
    }

    private static void Issue(X509Certificate2 authority, string subject, Oid usage, SubjectAlternativeNameBuilder? names,
        string certFile, string keyFile, DateTimeOffset notBefore, DateTimeOffset notAfter)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(false, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.DigitalSignature, true));
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([usage], false));
        request.CertificateExtensions.Add(X509AuthorityKeyIdentifierExtension.CreateFromCertificate(authority, true, false));
        if (names is not null)
        {
            request.CertificateExtensions.Add(names.Build());
        }

        var serial = RandomNumberGenerator.GetBytes(16);
        serial[0] &= 0x7F;
        using var certificate = request.Create(authority, notBefore, notAfter, serial);
        File.WriteAllText(certFile, certificate.ExportCertificatePem());
        File.WriteAllText(keyFile, key.ExportPkcs8PrivateKeyPem());
    }
}
