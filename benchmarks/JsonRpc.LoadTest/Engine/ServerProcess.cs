using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text.RegularExpressions;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// A server the tool starts as a process of its own (the standalone router, nats-server): it listens on a port the
/// operating system picks (port 0), and the port is read back from the line the server logs when it is listening.
/// Its output is drained (the last lines kept for errors) so that it never blocks on a full pipe. Disposing stops it:
/// SIGTERM (a graceful shutdown), then a kill if it has not exited within a few seconds.
/// </summary>
internal sealed class ServerProcess : IAsyncDisposable
{
    private const int KeptLines = 40;
    private readonly Process _process;
    private readonly Queue<string> _lastLines = new();

    private ServerProcess(Process process, string description)
    {
        _process = process;
        Description = description;
        Probe = new ProcessProbe(process.Id);
    }

    /// <summary>The command line, for the report.</summary>
    public string Description { get; }

    public ProcessProbe Probe { get; }

    public IPEndPoint EndPoint { get; private set; } = new(IPAddress.Loopback, 0);

    /// <summary>Resident memory once it was listening, in bytes.</summary>
    public long StartRss { get; private set; }

    /// <summary>"jit" or "native" (see <see cref="ProcessProbe.Runtime"/>).</summary>
    public string Runtime { get; private set; } = "unknown";

    /// <summary>Starts <paramref name="fileName"/> and waits (up to 60 s) for a line matching <paramref name="listening"/>, whose group 1 is the port.</summary>
    public static async Task<ServerProcess> StartAsync(string fileName, IEnumerable<string> arguments, IEnumerable<KeyValuePair<string, string>> environment, Regex listening, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        start.Environment["DOTNET_NOLOGO"] = "1";
        // The callers' setting (--inline-io) is not the server's: a router gets it only through its own options.
        start.Environment.Remove(InlineSocketCompletions.Variable);
        var described = new List<string>();
        foreach (var (name, value) in environment)
        {
            start.Environment[name] = value;
            described.Add($"{name}={value}");
        }

        described.Add(fileName);
        described.AddRange(start.ArgumentList);
        var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {fileName}.");
        var server = new ServerProcess(process, string.Join(' ', described));
        var port = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        void OnLine(object sender, DataReceivedEventArgs e)
        {
            if (e.Data is null)
            {
                return;
            }

            server.Keep(e.Data);
            if (listening.Match(e.Data) is { Success: true } match)
            {
                port.TrySetResult(int.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture));
            }
        }

        process.OutputDataReceived += OnLine;
        process.ErrorDataReceived += OnLine;
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            var exited = process.WaitForExitAsync(cancellationToken);
            var first = await Task.WhenAny(port.Task, exited).WaitAsync(TimeSpan.FromSeconds(60), cancellationToken).ConfigureAwait(false);
            if (first != port.Task)
            {
                throw new InvalidOperationException($"{fileName} exited before it was listening:{Environment.NewLine}{server.LastLines()}");
            }

            server.EndPoint = new IPEndPoint(IPAddress.Loopback, await port.Task.ConfigureAwait(false));
            server.StartRss = server.Probe.Rss();
            server.Runtime = server.Probe.Runtime();
            return server;
        }
        catch (TimeoutException)
        {
            await server.DisposeAsync().ConfigureAwait(false);
            throw new TimeoutException($"{fileName} was not listening after 60 s:{Environment.NewLine}{server.LastLines()}");
        }
        catch
        {
            await server.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>The last lines the process wrote.</summary>
    public string LastLines()
    {
        lock (_lastLines)
        {
            return string.Join(Environment.NewLine, _lastLines);
        }
    }

    public bool HasExited => _process.HasExited;

    /// <summary>Kills the process at once (SIGKILL: no graceful shutdown, as a crash or an OOM kill) and waits for it to exit.</summary>
    public async Task KillAsync()
    {
        try
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(10)).ConfigureAwait(false);
        }
        catch (InvalidOperationException)
        {
            // Already gone.
        }
    }

    private void Keep(string line)
    {
        lock (_lastLines)
        {
            _lastLines.Enqueue(line);
            if (_lastLines.Count > KeptLines)
            {
                _lastLines.Dequeue();
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            if (!_process.HasExited)
            {
                _ = NativeMethods.Kill(_process.Id, NativeMethods.SigTerm);
                try
                {
                    await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(10)).ConfigureAwait(false);
                }
                catch (TimeoutException)
                {
                    _process.Kill(entireProcessTree: true);
                    await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(10)).ConfigureAwait(false);
                }
            }
        }
        catch (InvalidOperationException)
        {
            // Never started or already reaped.
        }
        finally
        {
            _process.Dispose();
        }
    }
}
