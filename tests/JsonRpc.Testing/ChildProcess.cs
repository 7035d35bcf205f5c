using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;

namespace JsonRpc.Testing;

/// <summary>
/// A real child process for tests (the standalone router, a sample): every stream redirected, standard input closed at
/// once, each line of standard output and error captured as it comes, and every wait bounded. Disposing kills the
/// process tree if it is still running, so a failed test leaves nothing behind.
/// </summary>
public sealed partial class ChildProcess : IAsyncDisposable
{
    /// <summary>SIGINT, as Ctrl+C sends.</summary>
    public const int SigInt = 2;

    /// <summary>SIGTERM, as a service manager sends to stop a service.</summary>
    public const int SigTerm = 15;

    /// <summary>How long <see cref="RunAsync"/> lets a process run unless told otherwise.</summary>
    public static readonly TimeSpan DefaultRunTimeout = TimeSpan.FromSeconds(30);

    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly StringBuilder _stdout = new();
    private readonly StringBuilder _stderr = new();
    private readonly List<(Regex Pattern, TaskCompletionSource<Match> Found)> _watches = [];

    private int _disposed;

    private ChildProcess(Process process) => _process = process;

    /// <summary>The process id.</summary>
    public int Id => _process.Id;

    /// <summary>Whether the process has exited.</summary>
    public bool HasExited => _process.HasExited;

    /// <summary>Standard output and error so far, interleaved line by line as they arrived.</summary>
    public string Output => Read(_output);

    /// <summary>Standard output so far.</summary>
    public string StandardOutput => Read(_stdout);

    /// <summary>Standard error so far.</summary>
    public string StandardError => Read(_stderr);

    /// <summary>The <c>dotnet</c> host that runs the tests: the SDK's DOTNET_HOST_PATH, this process's host, or PATH's.</summary>
    public static string DotnetHost { get; } = FindDotnetHost();

    /// <summary>Starts <paramref name="dll"/> with the <c>dotnet</c> host (see <see cref="DotnetHost"/>).</summary>
    /// <param name="dll">The application to run.</param>
    /// <param name="args">Its arguments.</param>
    /// <param name="environment">Variables to set (or override) for the process.</param>
    /// <param name="workingDirectory">The working directory; the dll's folder when null.</param>
    public static ChildProcess StartDotnet(string dll, IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null, string? workingDirectory = null)
    {
        if (!File.Exists(dll))
        {
            throw new FileNotFoundException($"{dll} is not built.", dll);
        }

        return Start(DotnetHost, [dll, .. args], environment, workingDirectory ?? Path.GetDirectoryName(dll));
    }

    /// <summary>Starts <paramref name="fileName"/> with <paramref name="args"/>.</summary>
    public static ChildProcess Start(string fileName, IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null, string? workingDirectory = null)
    {
        var start = new ProcessStartInfo(fileName)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory ?? string.Empty,
        };
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        start.Environment["DOTNET_NOLOGO"] = "1";
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        var child = new ChildProcess(Process.Start(start) ?? throw new InvalidOperationException($"{fileName} did not start."));
        child._process.OutputDataReceived += (_, e) => child.Append(e.Data, child._stdout);
        child._process.ErrorDataReceived += (_, e) => child.Append(e.Data, child._stderr);
        child._process.BeginOutputReadLine();
        child._process.BeginErrorReadLine();
        child._process.StandardInput.Close();
        return child;
    }

    /// <summary>Runs <paramref name="dll"/> to its exit and returns its exit code and output.</summary>
    /// <exception cref="TimeoutException">It ran longer than <paramref name="timeout"/> (default 30 s); it was killed.</exception>
    public static async Task<ProcessResult> RunAsync(string dll, IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null, TimeSpan? timeout = null)
    {
        await using var child = StartDotnet(dll, args, environment);
        var exitCode = await child.WaitForExitAsync(timeout ?? DefaultRunTimeout);
        return new ProcessResult(exitCode, child.StandardOutput, child.StandardError);
    }

    /// <summary>Waits for a line of standard output or error that matches <paramref name="pattern"/>, including lines already seen.</summary>
    /// <exception cref="TimeoutException">No such line within <paramref name="timeout"/>, or the process exited first; the message has the output.</exception>
    public async Task<Match> WaitForLineAsync(Regex pattern, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(pattern);
        var found = new TaskCompletionSource<Match>(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_output)
        {
            foreach (var line in _output.ToString().Split('\n'))
            {
                if (pattern.Match(line.TrimEnd('\r')) is { Success: true } match)
                {
                    return match;
                }
            }

            _watches.Add((pattern, found));
        }

        var exited = _process.WaitForExitAsync();
        Task first;
        try
        {
            first = await Task.WhenAny(found.Task, exited).WaitAsync(timeout).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"No line matching /{pattern}/ within {timeout.TotalSeconds:0.#} s:\n{Output}");
        }

        if (first == found.Task)
        {
            return await found.Task;
        }

        // Exited: the line may have been among the last ones read.
        return found.Task.IsCompleted
            ? await found.Task
            : throw new TimeoutException($"The process exited with code {_process.ExitCode} before writing a line matching /{pattern}/:\n{Output}");
    }

    /// <summary>Waits for the process to exit and for its output to be read to the end; returns the exit code.</summary>
    /// <exception cref="TimeoutException">It did not exit within <paramref name="timeout"/>; it was killed, and the message has its output.</exception>
    public async Task<int> WaitForExitAsync(TimeSpan timeout)
    {
        try
        {
            await _process.WaitForExitAsync().WaitAsync(timeout).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            Kill();
            throw new TimeoutException($"The process did not exit within {timeout.TotalSeconds:0.#} s and was killed:\n{Output}");
        }

        return _process.ExitCode;
    }

    /// <summary>Sends a Unix signal (<see cref="SigInt"/>, <see cref="SigTerm"/>) to the process.</summary>
    /// <exception cref="PlatformNotSupportedException">Not on Unix.</exception>
    public void Signal(int signal)
    {
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsMacOS() && !OperatingSystem.IsFreeBSD())
        {
            throw new PlatformNotSupportedException("Signals are for Unix.");
        }

        if (Kill(_process.Id, signal) != 0)
        {
            throw new InvalidOperationException($"kill({_process.Id}, {signal}) failed with errno {Marshal.GetLastPInvokeError()}.");
        }
    }

    /// <summary>
    /// Whether <paramref name="signal"/> is ignored in this process, and so in every child it starts: a shell without job
    /// control starts background commands (<c>cmd &amp;</c>) with SIGINT ignored, and .NET keeps a signal ignored when it
    /// was so at start. A test that sends SIGINT to a child must then send another signal. Read from /proc (Linux).
    /// </summary>
    public static bool IsIgnoredHere(int signal)
    {
        const string prefix = "SigIgn:";
        if (signal is < 1 or > 64 || !File.Exists("/proc/self/status"))
        {
            return false;
        }

        foreach (var line in File.ReadLines("/proc/self/status"))
        {
            if (line.StartsWith(prefix, StringComparison.Ordinal))
            {
                var mask = ulong.Parse(line.AsSpan(prefix.Length).Trim(), System.Globalization.NumberStyles.HexNumber, System.Globalization.CultureInfo.InvariantCulture);
                return (mask & (1UL << (signal - 1))) != 0;
            }
        }

        return false;
    }

    /// <summary>Kills the process tree if it is still running and waits (bounded) for it to go. Idempotent.</summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        Kill();
        try
        {
            await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(10)).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            // Nothing more to do: the kill was sent; do not hide the test's own outcome behind this one.
        }

        _process.Dispose();
    }

    /// <summary>Kills the process tree at once if it is still running (SIGKILL: no shutdown).</summary>
    public void Kill()
    {
        try
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
            }
        }
        catch (InvalidOperationException)
        {
            // It exited between the check and the kill.
        }
    }

    private void Append(string? line, StringBuilder stream)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.AppendLine(line);
            stream.AppendLine(line);
            for (var i = _watches.Count - 1; i >= 0; i--)
            {
                if (_watches[i].Pattern.Match(line) is { Success: true } match)
                {
                    _watches[i].Found.TrySetResult(match);
                    _watches.RemoveAt(i);
                }
            }
        }
    }

    private string Read(StringBuilder text)
    {
        lock (_output)
        {
            return text.ToString();
        }
    }

    private static string FindDotnetHost()
    {
        if (Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host && File.Exists(host))
        {
            return host;
        }

        var current = Environment.ProcessPath;
        return current is not null && Path.GetFileNameWithoutExtension(current) == "dotnet" ? current : "dotnet";
    }

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static partial int Kill(int pid, int signal);
}
