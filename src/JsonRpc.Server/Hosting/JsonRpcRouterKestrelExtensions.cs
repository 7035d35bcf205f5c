using System.Net;
using System.Security.Cryptography.X509Certificates;
using JsonRpc.Server;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Https;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Microsoft.AspNetCore.Hosting;

/// <summary>Puts the JSON-RPC router on Kestrel endpoints.</summary>
public static class JsonRpcRouterKestrelExtensions
{
    /// <summary>
    /// Serves this endpoint with the JSON-RPC router (registered with <c>services.AddJsonRpcRouter()</c>), beside any
    /// HTTP endpoints of the app. Call <c>UseHttps</c> before it for TLS.
    /// </summary>
    public static ListenOptions UseJsonRpcRouter(this ListenOptions listenOptions)
    {
        ArgumentNullException.ThrowIfNull(listenOptions);
        listenOptions.UseConnectionHandler<JsonRpcConnectionHandler>();
        listenOptions.ApplicationServices.GetService<JsonRpcRouter>()?.RawEndpoints.Add(listenOptions); // logged once listening
        return listenOptions;
    }

    /// <summary>
    /// Listens on <see cref="JsonRpcRouterOptions.Host"/>:<see cref="JsonRpcRouterOptions.Port"/> and serves it with
    /// the router, over TLS when a certificate is configured (Kestrel's own HTTPS connection middleware). With
    /// <see cref="JsonRpcRouterOptions.HttpPort"/> it also listens there for HTTP (HTTPS with the certificate), where
    /// the app maps <c>MapJsonRpcRouter</c> and <c>MapJsonRpcDashboard</c>. The bound addresses are in the
    /// <see cref="JsonRpcRouterListeners"/> service.
    /// </summary>
    public static KestrelServerOptions ListenJsonRpcRouter(this KestrelServerOptions kestrel)
    {
        ArgumentNullException.ThrowIfNull(kestrel);
        var options = kestrel.ApplicationServices.GetRequiredService<IOptions<JsonRpcRouterOptions>>().Value;
        var listeners = kestrel.ApplicationServices.GetService<JsonRpcRouterListeners>();
        if (listeners is not null && kestrel.ApplicationServices.GetService<JsonRpcRouter>() is { } router)
        {
            router.Listeners = listeners; // for the hint an HTTP request on the TCP port gets
        }

        var certificate = LoadCertificate(options);
        Listen(kestrel, options.Host, options.Port, listen =>
        {
            if (certificate is not null)
            {
                listen.UseHttps(Https(certificate, options));
            }

            listen.UseJsonRpcRouter();
            listeners?.SetTcp(listen, certificate is not null);
        });

        if (options.HttpPort is { } httpPort)
        {
            Listen(kestrel, options.Host, httpPort, listen =>
            {
                listen.Protocols = certificate is null ? HttpProtocols.Http1 : HttpProtocols.Http1AndHttp2;
                if (certificate is not null)
                {
                    listen.UseHttps(Https(certificate, options));
                }

                listeners?.SetHttp(listen);
            });
        }

        return kestrel;
    }

    /// <summary>
    /// TLS with the router's certificate; where client certificates are mapped to identities, clients are asked for one
    /// (not required: a client without one may still authenticate with a token). Kestrel accepts any certificate the
    /// client shows; the router then maps it, pinned by thumbprint or chained to the configured CA, or ignores it.
    /// </summary>
    internal static HttpsConnectionAdapterOptions Https(X509Certificate2 certificate, JsonRpcRouterOptions options)
    {
        var https = new HttpsConnectionAdapterOptions { ServerCertificate = certificate };
        if (options.Security is { Certificates.Count: > 0 })
        {
            https.ClientCertificateMode = ClientCertificateMode.AllowCertificate;
            https.AllowAnyClientCertificate();
        }

        return https;
    }

    private static void Listen(KestrelServerOptions kestrel, string host, int port, Action<ListenOptions> configure)
    {
        switch (host)
        {
            case "*" or "0.0.0.0" or "::" or "[::]":
                kestrel.ListenAnyIP(port, configure);
                break;
            case "localhost":
                kestrel.ListenLocalhost(port, configure);
                break;
            default:
                if (!IPAddress.TryParse(host.Trim('[', ']'), out var address))
                {
                    throw new InvalidOperationException($"JsonRpcRouter:Host '{host}' is not an IP address, 'localhost' or '*'.");
                }

                kestrel.Listen(address, port, configure);
                break;
        }
    }

    /// <summary>The configured certificate: given in code, or loaded from a PKCS#12 or PEM file.</summary>
    internal static X509Certificate2? LoadCertificate(JsonRpcRouterOptions options)
    {
        if (options.Certificate is not null)
        {
            return options.Certificate;
        }

        if (string.IsNullOrEmpty(options.CertificatePath))
        {
            return null;
        }

        var path = options.CertificatePath;
        if (!File.Exists(path))
        {
            throw Unusable($"{JsonRpcRouterConfiguration.Describe(nameof(JsonRpcRouterOptions.CertificatePath))}: no file '{Path.GetFullPath(path)}'.");
        }

        try
        {
            var extension = Path.GetExtension(path);
            if (extension.Equals(".pem", StringComparison.OrdinalIgnoreCase) || extension.Equals(".crt", StringComparison.OrdinalIgnoreCase))
            {
                return string.IsNullOrEmpty(options.CertificatePassword)
                    ? X509Certificate2.CreateFromPemFile(path, options.CertificateKeyPath)
                    : X509Certificate2.CreateFromEncryptedPemFile(path, options.CertificatePassword, options.CertificateKeyPath);
            }

            return X509CertificateLoader.LoadPkcs12FromFile(path, options.CertificatePassword);
        }
        catch (Exception ex) when (ex is System.Security.Cryptography.CryptographicException or IOException or UnauthorizedAccessException or ArgumentException)
        {
            // "Error occurred during a cryptographic operation" alone does not say which file, nor which setting.
            throw Unusable(
                $"{JsonRpcRouterConfiguration.Describe(nameof(JsonRpcRouterOptions.CertificatePath))} '{path}' cannot be loaded "
                + $"(a PKCS#12 file with its certificate_password, or a PEM certificate with certificate_key_path): {ex.Message}");
        }
    }

    /// <summary>A setting that cannot be used, as the options validator reports one.</summary>
    private static OptionsValidationException Unusable(string message)
        => new(Microsoft.Extensions.Options.Options.DefaultName, typeof(JsonRpcRouterOptions), [message]);
}
