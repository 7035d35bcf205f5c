using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using System.Text.Json.Nodes;
using NATS.NKeys;

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

    /// <summary>
    /// NATS's decentralized authentication ("operator mode") as <c>nsc</c> would set it up: an operator, one account
    /// it signed (given to the server in memory) and a user that account signed, whose credentials file (JWT and seed)
    /// goes to <c>nats_creds_file</c>. <paramref name="strangerCredsFile"/> is a user of an account the operator never
    /// signed.
    /// </summary>
    /// <returns>The nats-server arguments that load the configuration.</returns>
    public string[] OperatorMode(out string credsFile, out string strangerCredsFile)
    {
        using var @operator = KeyPair.CreatePair(PrefixByte.Operator);
        using var account = KeyPair.CreatePair(PrefixByte.Account);
        using var stranger = KeyPair.CreatePair(PrefixByte.Account);
        var operatorFile = Path.Combine(Folder, "operator.jwt");
        File.WriteAllText(operatorFile, Jwt(@operator, @operator.GetPublicKey(), "test-operator", new JsonObject { ["type"] = "operator", ["version"] = 2 }));
        var accountJwt = Jwt(@operator, account.GetPublicKey(), "routers", new JsonObject
        {
            // -1: no limit (an absent limit would be zero: no connections at all).
            ["limits"] = new JsonObject { ["subs"] = -1, ["data"] = -1, ["payload"] = -1, ["imports"] = -1, ["exports"] = -1, ["wildcards"] = true, ["conn"] = -1, ["leaf"] = -1 },
            ["type"] = "account",
            ["version"] = 2,
        });
        credsFile = WriteUser(account, "router");
        strangerCredsFile = WriteUser(stranger, "stranger");
        return Config($$"""
            operator: "{{operatorFile}}"
            resolver: MEMORY
            resolver_preload: {
              {{account.GetPublicKey()}}: "{{accountJwt}}"
            }
            """);
    }

    private string WriteUser(KeyPair account, string name)
    {
        using var user = KeyPair.CreatePair(PrefixByte.User);
        var jwt = Jwt(account, user.GetPublicKey(), name, new JsonObject
        {
            ["pub"] = new JsonObject(),
            ["sub"] = new JsonObject(),
            ["subs"] = -1,
            ["data"] = -1,
            ["payload"] = -1,
            ["type"] = "user",
            ["version"] = 2,
        });
        var path = Path.Combine(Folder, name + ".creds");
        File.WriteAllText(path, $"""
            -----BEGIN NATS USER JWT-----
            {jwt}
            ------END NATS USER JWT------

            -----BEGIN USER NKEY SEED-----
            {user.GetSeed()}
            ------END USER NKEY SEED------

            """);
        return path;
    }

    /// <summary>A NATS JWT: claims about <paramref name="subject"/> signed (ed25519) by <paramref name="issuer"/>.</summary>
    private static string Jwt(KeyPair issuer, string subject, string name, JsonObject nats)
    {
        var claims = new JsonObject
        {
            ["jti"] = Convert.ToHexString(RandomNumberGenerator.GetBytes(16)),
            ["iat"] = DateTimeOffset.UtcNow.ToUnixTimeSeconds(),
            ["iss"] = issuer.GetPublicKey(),
            ["name"] = name,
            ["sub"] = subject,
            ["nats"] = nats,
        };
        var signed = Base64Url("""{"typ":"JWT","alg":"ed25519-nkey"}"""u8) + "." + Base64Url(Encoding.UTF8.GetBytes(claims.ToJsonString()));
        var signature = new byte[64];
        issuer.Sign(Encoding.ASCII.GetBytes(signed), signature);
        return signed + "." + Base64Url(signature);
    }

    private static string Base64Url(ReadOnlySpan<byte> bytes) => System.Buffers.Text.Base64Url.EncodeToString(bytes);

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
