using System.Text.RegularExpressions;

namespace JsonRpc.LoadTest.Engine;

/// <summary>How the tool starts the servers it measures as processes of their own.</summary>
internal static partial class ServerLaunch
{
    /// <summary>The router's start-up line: "JSON-RPC router listening on tcp://127.0.0.1:PORT".</summary>
    [GeneratedRegex(@"listening on tcp://127\.0\.0\.1:(\d+)")]
    private static partial Regex RouterListening();

    /// <summary>nats-server's: "Listening for client connections on 127.0.0.1:PORT".</summary>
    [GeneratedRegex(@"Listening for client connections on 127\.0\.0\.1:(\d+)")]
    private static partial Regex NatsListening();

    /// <summary>
    /// The standalone router as users run it, with its defaults except the limits the workload needs (as the
    /// in-process router gets them): a fresh process on 127.0.0.1 port 0. A <c>.dll</c> is run with <c>dotnet</c>.
    /// </summary>
    public static Task<ServerProcess> StartRouterAsync(LoadOptions options, CancellationToken cancellationToken)
    {
        var path = Path.GetFullPath(options.RouterPath!);
        if (!File.Exists(path))
        {
            throw new FileNotFoundException($"--router: {path} does not exist (build or publish src/JsonRpc.Router first).", path);
        }

        var arguments = new List<string>();
        var fileName = path;
        if (path.EndsWith(".dll", StringComparison.OrdinalIgnoreCase))
        {
            fileName = "dotnet";
            arguments.Add(path);
        }

        arguments.AddRange(["--host", "127.0.0.1", "--port", "0"]);

        // Only the limits the workload needs above the defaults (none for the standard workloads): as users run it.
        var limits = RouterLimits.For(options);
        var defaults = new Server.JsonRpcRouterOptions();
        if (limits.MaxPendingCalls != defaults.MaxPendingCallsPerConnection)
        {
            arguments.AddRange(["--max_pending_calls", Text(limits.MaxPendingCalls)]);
        }

        if (limits.MaxMessageSize != defaults.MaxMessageSize)
        {
            arguments.AddRange(["--max_message_size", Text(limits.MaxMessageSize),
                "--max_outbound_buffer_size", Text(Math.Max(limits.MaxMessageSize, defaults.MaxOutboundBufferSize))]);
        }

        if (limits.MaxConnections != defaults.MaxConnections)
        {
            arguments.AddRange(["--max_connections", Text(limits.MaxConnections)]);
        }

        if (options.SecurityFile is { } security)
        {
            arguments.AddRange(["--security_file", Path.GetFullPath(security)]);
        }

        var environment = options.RouterEnvironment.Select(pair => new KeyValuePair<string, string>(pair[..pair.IndexOf('=', StringComparison.Ordinal)], pair[(pair.IndexOf('=', StringComparison.Ordinal) + 1)..]));
        return ServerProcess.StartAsync(fileName, arguments, environment, RouterListening(), cancellationToken);
    }

    /// <summary>nats-server from PATH (Debian's package puts it in /usr/sbin), on 127.0.0.1 and a port it picks (or <paramref name="port"/>).</summary>
    public static Task<ServerProcess> StartNatsAsync(CancellationToken cancellationToken, int port = -1)
    {
        var path = FindNatsServer() ?? throw new FileNotFoundException("nats-server is not on PATH (Debian: apt-get install nats-server), and no --nats-url was given.");
        return ServerProcess.StartAsync(path, ["-a", "127.0.0.1", "-p", Text(port)], [], NatsListening(), cancellationToken);
    }

    /// <summary>The standalone router at <paramref name="path"/> with exactly <paramref name="arguments"/> (a <c>.dll</c> is run with <c>dotnet</c>).</summary>
    public static Task<ServerProcess> StartRouterAsync(string path, IEnumerable<string> arguments, CancellationToken cancellationToken)
    {
        path = Path.GetFullPath(path);
        var isDll = path.EndsWith(".dll", StringComparison.OrdinalIgnoreCase);
        return ServerProcess.StartAsync(isDll ? "dotnet" : path, isDll ? [path, .. arguments] : arguments, [], RouterListening(), cancellationToken);
    }

    /// <summary>nats-server's path: PATH first, then /usr/sbin and /usr/local/bin; null when absent.</summary>
    public static string? FindNatsServer()
    {
        var folders = (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Concat(["/usr/sbin", "/usr/local/bin", "/usr/bin"]);
        return folders.Select(folder => Path.Combine(folder, "nats-server")).FirstOrDefault(File.Exists);
    }

    private static string Text(int value) => value.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
