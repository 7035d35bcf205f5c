using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;

namespace JsonRpc.Testing;

/// <summary>
/// The standalone router (src/JsonRpc.Router, built beside the tests) as a real process, with its output captured;
/// disposing kills it if it still runs.
/// </summary>
public sealed partial class RouterProcess : IDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly StringBuilder _error = new();
    private readonly List<(Regex Pattern, TaskCompletionSource<Match> Found)> _waiters = [];
    private int _disposed;

    private RouterProcess(Process process) => _process = process;

    /// <summary>Everything written to stdout so far.</summary>
    public string Output
    {
        get
        {
            lock (_output)
            {
                return _output.ToString();
            }
        }
    }

    /// <summary>Everything written to stderr so far.</summary>
    public string Error
    {
        get
        {
            lock (_output)
            {
                return _error.ToString();
            }
        }
    }

    /// <summary>The process, e.g. for its exit code.</summary>
    public Process Process => _process;

    /// <summary>Starts <c>dotnet JsonRpc.Router.dll</c> with <paramref name="args"/>.</summary>
    public static RouterProcess Start(params string[] args)
    {
        var dll = FindRouterDll();
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = Path.GetDirectoryName(dll)!,
        };
        start.ArgumentList.Add(dll);
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        start.Environment["DOTNET_NOLOGO"] = "1";
        var router = new RouterProcess(new Process { StartInfo = start });
        router._process.OutputDataReceived += (_, e) => router.OnLine(e.Data, router._output);
        router._process.ErrorDataReceived += (_, e) => router.OnLine(e.Data, router._error);
        router._process.Start();
        router._process.BeginOutputReadLine();
        router._process.BeginErrorReadLine();
        return router;
    }

    /// <summary>Waits (bounded) for a line of stdout that matches <paramref name="pattern"/>.</summary>
    public Task<Match> WaitForLineAsync(Regex pattern, TimeSpan timeout)
    {
        var found = new TaskCompletionSource<Match>(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_output)
        {
            foreach (var line in _output.ToString().Split('\n'))
            {
                if (pattern.Match(line) is { Success: true } match)
                {
                    return Task.FromResult(match);
                }
            }

            _waiters.Add((pattern, found));
        }

        return found.Task.WaitAsync(timeout);
    }

    /// <summary>Waits (bounded) for the process to exit and returns its exit code.</summary>
    public async Task<int> WaitForExitAsync(TimeSpan timeout)
    {
        await _process.WaitForExitAsync().WaitAsync(timeout);
        _process.WaitForExit(); // the output is read to its end
        return _process.ExitCode;
    }

    /// <summary>Sends SIGINT, as Ctrl+C does.</summary>
    public void Interrupt()
    {
        if (kill(_process.Id, 2) != 0)
        {
            throw new InvalidOperationException("Could not signal the router process.");
        }
    }

    /// <summary>The router built for the same configuration and framework as the running tests.</summary>
    public static string FindRouterDll()
    {
        // tests/<Project>/bin/<Configuration>/net10.0/ -> src/JsonRpc.Router/bin/<Configuration>/net10.0/
        var baseDirectory = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
        var framework = baseDirectory.Name;
        var configuration = baseDirectory.Parent!.Name;
        var root = baseDirectory;
        while (root is not null && !File.Exists(Path.Combine(root.FullName, "JsonRpc.sln")))
        {
            root = root.Parent;
        }

        if (root is null)
        {
            throw new InvalidOperationException("JsonRpc.sln not found above " + AppContext.BaseDirectory);
        }

        var dll = Path.Combine(root.FullName, "src", "JsonRpc.Router", "bin", configuration, framework, "JsonRpc.Router.dll");
        return File.Exists(dll) ? dll : throw new InvalidOperationException(dll + " is not built");
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit(5000);
        }

        _process.Dispose();
    }

    private void OnLine(string? line, StringBuilder into)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            into.AppendLine(line);
            if (into != _output)
            {
                return;
            }

            for (var i = _waiters.Count - 1; i >= 0; i--)
            {
                if (_waiters[i].Pattern.Match(line) is { Success: true } match)
                {
                    _waiters[i].Found.TrySetResult(match);
                    _waiters.RemoveAt(i);
                }
            }
        }
    }

    [DllImport("libc", SetLastError = true)]
    private static extern int kill(int pid, int signal);
}
