using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace JsonRpc.Testing;

/// <summary>
/// A real <c>nats-server</c> (from PATH, or /usr/sbin) on 127.0.0.1 and a free port, for tests; killed on dispose.
/// Tests that need one skip where it is absent (see <see cref="IsAvailable"/>).
/// </summary>
public sealed class NatsServer : IAsyncDisposable
{
    /// <summary>How long the server may take to accept connections.</summary>
    public static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(15);

    private readonly string[] _arguments;
    private Process? _process;

    private NatsServer(int port, string[] arguments) => (Port, _arguments) = (port, arguments);

    /// <summary>The path of the nats-server binary, or null when it is not installed.</summary>
    public static string? BinaryPath { get; } = Find();

    /// <summary>Whether nats-server is installed.</summary>
    public static bool IsAvailable => BinaryPath is not null;

    /// <summary>Why NATS tests skip here.</summary>
    public static string SkipReason => "nats-server is not installed (apt-get install nats-server); .ci/run installs it.";

    /// <summary>The port the server listens on at 127.0.0.1.</summary>
    public int Port { get; }

    /// <summary>The URL to give NATS clients.</summary>
    public string Url => $"nats://127.0.0.1:{Port}";

    /// <summary>Whether the server process is running.</summary>
    public bool IsRunning => _process is { HasExited: false };

    /// <summary>
    /// Starts a server on a free port (or <paramref name="port"/>) and waits until it accepts connections.
    /// <paramref name="arguments"/> go to nats-server after the address and port, such as
    /// <c>--cluster nats://127.0.0.1:6222 --routes …</c>, on every start.
    /// </summary>
    public static async Task<NatsServer> StartAsync(int port = 0, params string[] arguments)
    {
        var server = new NatsServer(port == 0 ? FreePort() : port, arguments);
        await server.RestartAsync();
        return server;
    }

    /// <summary>Starts the server again on the same port (after <see cref="Kill"/>).</summary>
    public async Task RestartAsync()
    {
        if (BinaryPath is null)
        {
            throw new InvalidOperationException(SkipReason);
        }

        Kill();
        var start = new ProcessStartInfo(BinaryPath, ["-a", "127.0.0.1", "-p", Port.ToString(System.Globalization.CultureInfo.InvariantCulture), .. _arguments])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        _process = Process.Start(start) ?? throw new InvalidOperationException("nats-server did not start.");
        _process.OutputDataReceived += static (_, _) => { };
        _process.ErrorDataReceived += static (_, _) => { };
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();

        var deadline = DateTime.UtcNow + StartTimeout;
        while (true)
        {
            try
            {
                using var probe = new TcpClient();
                await probe.ConnectAsync(IPAddress.Loopback, Port).WaitAsync(TimeSpan.FromSeconds(2));
                return;
            }
            catch (Exception ex) when (ex is SocketException or TimeoutException)
            {
                if (_process.HasExited || DateTime.UtcNow > deadline)
                {
                    throw new InvalidOperationException($"nats-server did not accept connections on port {Port} within {StartTimeout}.", ex);
                }

                await Task.Delay(50);
            }
        }
    }

    /// <summary>Kills the server at once, as a crash would.</summary>
    public void Kill()
    {
        if (_process is { } process)
        {
            try
            {
                if (!process.HasExited)
                {
                    process.Kill(entireProcessTree: true);
                    process.WaitForExit(10_000);
                }
            }
            catch (InvalidOperationException)
            {
                // Already gone.
            }

            process.Dispose();
            _process = null;
        }
    }

    /// <inheritdoc/>
    public ValueTask DisposeAsync()
    {
        Kill();
        return ValueTask.CompletedTask;
    }

    /// <summary>A port nothing listens on now (bound and released at once).</summary>
    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    private static string? Find()
    {
        foreach (var dir in (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(Path.PathSeparator).Append("/usr/sbin").Append("/usr/bin"))
        {
            var path = Path.Combine(dir, "nats-server");
            if (dir.Length > 0 && File.Exists(path))
            {
                return path;
            }
        }

        return null;
    }
}
