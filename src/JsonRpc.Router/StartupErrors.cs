using System.Globalization;
using System.Text.RegularExpressions;
using JsonRpc.Server;

namespace JsonRpc.Router;

/// <summary>Start-up failures in the router's words rather than Kestrel's.</summary>
internal static partial class StartupErrors
{
    /// <summary>
    /// Kestrel says "Failed to bind to address http://127.0.0.1:8080: address already in use." for the raw TCP port
    /// too: this names the port, which setting it came from and its scheme, and what to do.
    /// </summary>
    public static string AddressInUse(string kestrelMessage, JsonRpcRouterOptions? options)
    {
        var match = BoundAddress().Match(kestrelMessage);
        if (!match.Success || options is null)
        {
            return kestrelMessage.ReplaceLineEndings(" ");
        }

        var host = match.Groups["host"].Value;
        var port = int.Parse(match.Groups["port"].Value, CultureInfo.InvariantCulture);
        var (scheme, setting) = port == options.HttpPort
            ? (match.Groups["scheme"].Value, "--http_port")
            : (options.CertificatePath is null && options.Certificate is null ? "tcp" : "tls", "--port");
        return $"{scheme}://{host}:{port} is already in use by another process; choose another {setting} (0 picks a free one) or stop what listens there.";
    }

    [GeneratedRegex(@"(?<scheme>https?)://(?<host>\[[^\]]+\]|[^:/\s]+):(?<port>\d+)")]
    private static partial Regex BoundAddress();
}
