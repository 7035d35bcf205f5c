using System.Diagnostics;
using System.Text;
using System.Text.RegularExpressions;

namespace JsonRpc.Cluster.Tests;

/// <summary>The standalone router (src/JsonRpc.Router) as a real process on 127.0.0.1 and a port it picks.</summary>
public sealed partial class RouterProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _log = new();
    private readonly ITestOutputHelper _output;
    private readonly string _name;

    private RouterProcess(Process process, ITestOutputHelper output, string name)
    {
        _process = process;
        _output = output;
        _name = name;
    }

    public int Port { get; private set; }

    public string Log
    {
        get
        {
            lock (_log)
            {
                return _log.ToString();
            }
        }
    }

    [GeneratedRegex(@"listening on tcp://127\.0\.0\.1:(\d+)")]
    private static partial Regex ListeningLine();

    public static async Task<RouterProcess> StartAsync(ITestOutputHelper output, string name, params string[] args)
    {
        var dll = JsonRpc.Testing.RouterBuild.FindRouterDll();
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = Path.GetDirectoryName(dll)!,
        };
        foreach (var arg in new[] { dll, "--port", "0" }.Concat(args))
        {
            start.ArgumentList.Add(arg);
        }

        start.Environment["DOTNET_NOLOGO"] = "1";
        var router = new RouterProcess(Process.Start(start)!, output, name);
        var port = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        router._process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is null)
            {
                return;
            }

            router.Append(e.Data);
            if (ListeningLine().Match(e.Data) is { Success: true } match)
            {
                port.TrySetResult(int.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture));
            }
        };
        router._process.ErrorDataReceived += (_, e) => router.Append(e.Data);
        router._process.BeginOutputReadLine();
        router._process.BeginErrorReadLine();
        try
        {
            router.Port = await port.Task.WaitAsync(TimeSpan.FromSeconds(60));
            return router;
        }
        catch
        {
            await router.DisposeAsync();
            throw;
        }
    }

    /// <summary>Kills the process at once (SIGKILL): no shutdown, no goodbye to the cluster.</summary>
    public void Kill()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit(10_000);
        }
    }

    public ValueTask DisposeAsync()
    {
        Kill();
        _output.WriteLine($"--- router {_name} ---{Environment.NewLine}{Log}");
        _process.Dispose();
        return ValueTask.CompletedTask;
    }

    private void Append(string? line)
    {
        lock (_log)
        {
            _log.AppendLine(line);
        }
    }
}
