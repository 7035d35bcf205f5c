using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text.Json;

namespace JsonRpc.Testing;

/// <summary>
/// A real Prometheus (Debian's <c>prometheus</c> package, /usr/bin/prometheus) on 127.0.0.1 and a free port, scraping
/// the given targets every second, with its storage in a temporary folder; queried through its HTTP API. Killed and its
/// folder removed on dispose. Tests that need one skip where it is absent, except under CI (<see cref="RequiredServer"/>).
/// </summary>
public sealed class PrometheusServer : IAsyncDisposable
{
    /// <summary>How long Prometheus may take to say it is ready.</summary>
    public static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(60);

    private readonly Process _process;
    private readonly string _folder;
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(30) };

    private PrometheusServer(Process process, string folder, int port)
    {
        _process = process;
        _folder = folder;
        Uri = new Uri($"http://127.0.0.1:{port}/");
    }

    /// <summary>The binary, or null when Prometheus is not installed.</summary>
    public static string? BinaryPath { get; } = File.Exists("/usr/bin/prometheus") ? "/usr/bin/prometheus" : null;

    /// <summary>Whether Prometheus is installed.</summary>
    public static bool IsAvailable => BinaryPath is not null;

    /// <summary>Why Prometheus tests skip here.</summary>
    public static string SkipReason => "prometheus is not installed (apt-get install prometheus); .ci/run installs it.";

    /// <summary>Its web address (the HTTP API is under <c>api/v1/</c>).</summary>
    public Uri Uri { get; }

    /// <summary>
    /// Starts Prometheus scraping <paramref name="targets"/> (host:port, path <paramref name="metricsPath"/>) every
    /// second under the job <paramref name="job"/>, and waits until it is ready.
    /// </summary>
    public static async Task<PrometheusServer> StartAsync(string job, string metricsPath, params string[] targets)
    {
        if (BinaryPath is null)
        {
            throw new InvalidOperationException(SkipReason);
        }

        var folder = Directory.CreateTempSubdirectory("prometheus-test-").FullName;
        var config = Path.Combine(folder, "prometheus.yml");
        await File.WriteAllTextAsync(config, $"""
            global:
              scrape_interval: 1s
              scrape_timeout: 1s
            scrape_configs:
              - job_name: {job}
                metrics_path: {metricsPath}
                static_configs:
                  - targets: [{string.Join(", ", targets.Select(t => $"'{t}'"))}]
            """).ConfigureAwait(false);
        var port = FreePort();
        var start = new ProcessStartInfo(BinaryPath,
        [
            "--config.file=" + config,
            "--storage.tsdb.path=" + Path.Combine(folder, "data"),
            "--web.listen-address=127.0.0.1:" + port.ToString(CultureInfo.InvariantCulture),
            "--log.level=warn",
        ])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        var process = Process.Start(start) ?? throw new InvalidOperationException("prometheus did not start.");
        process.OutputDataReceived += static (_, _) => { };
        process.ErrorDataReceived += static (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var server = new PrometheusServer(process, folder, port);
        try
        {
            await Eventually.TrueAsync(server.IsReadyAsync, "prometheus is ready", StartTimeout).ConfigureAwait(false);
            return server;
        }
        catch
        {
            await server.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>
    /// Runs an instant PromQL query (<c>GET api/v1/query</c>) and returns its samples' values with their labels; empty
    /// when nothing matches yet.
    /// </summary>
    public async Task<IReadOnlyList<(IReadOnlyDictionary<string, string> Labels, double Value)>> QueryAsync(string promQl)
    {
        using var response = await _http.GetAsync(new Uri(Uri, "api/v1/query?query=" + Uri.EscapeDataString(promQl))).ConfigureAwait(false);
        var body = await response.Content.ReadAsStringAsync().ConfigureAwait(false);
        using var document = JsonDocument.Parse(body);
        var root = document.RootElement;
        if (root.GetProperty("status").GetString() != "success")
        {
            throw new InvalidOperationException($"Prometheus refused '{promQl}': {body}");
        }

        var samples = new List<(IReadOnlyDictionary<string, string>, double)>();
        foreach (var item in root.GetProperty("data").GetProperty("result").EnumerateArray())
        {
            var labels = item.GetProperty("metric").EnumerateObject().ToDictionary(p => p.Name, p => p.Value.GetString()!);
            var value = double.Parse(item.GetProperty("value")[1].GetString()!, CultureInfo.InvariantCulture);
            samples.Add((labels, value));
        }

        return samples;
    }

    private async ValueTask<bool> IsReadyAsync()
    {
        if (_process.HasExited)
        {
            throw new InvalidOperationException($"prometheus exited with {_process.ExitCode}.");
        }

        try
        {
            using var response = await _http.GetAsync(new Uri(Uri, "-/ready")).ConfigureAwait(false);
            return response.StatusCode == HttpStatusCode.OK;
        }
        catch (HttpRequestException)
        {
            return false;
        }
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    public async ValueTask DisposeAsync()
    {
        _http.Dispose();
        try
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
                await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(15)).ConfigureAwait(false);
            }
        }
        catch (InvalidOperationException)
        {
            // Already gone.
        }
        catch (TimeoutException)
        {
            // Left to the OS.
        }

        _process.Dispose();
        try
        {
            Directory.Delete(_folder, recursive: true);
        }
        catch (IOException)
        {
        }
    }
}
