using System.Globalization;
using System.Text.RegularExpressions;

namespace JsonRpc.Testing;

/// <summary>
/// The standalone router (src/JsonRpc.Router, built beside the tests) as a real process: a <see cref="ChildProcess"/>
/// (output captured, every wait bounded, the process tree killed on dispose) that knows the router's own lines.
/// </summary>
public sealed partial class RouterProcess : IAsyncDisposable
{
    private RouterProcess(ChildProcess process) => Process = process;

    /// <summary>The process itself.</summary>
    public ChildProcess Process { get; }

    /// <summary>The TCP port it listens on, once <see cref="StartListeningAsync"/> has read it from its first line.</summary>
    public int Port { get; private set; }

    /// <summary>Standard output so far.</summary>
    public string Output => Process.StandardOutput;

    /// <summary>Standard error so far.</summary>
    public string Error => Process.StandardError;

    /// <summary>Standard output and error so far, interleaved as they arrived.</summary>
    public string Log => Process.Output;

    /// <summary>The router built for the same configuration and framework as the running tests.</summary>
    public static string Dll => RepositoryLayout.BuiltFile(Path.Combine("src", "JsonRpc.Router"), "JsonRpc.Router.dll");

    [GeneratedRegex(@"listening on (?:tcp|tls)://127\.0\.0\.1:(\d+)")]
    private static partial Regex ListeningLine();

    /// <summary>
    /// Starts <c>dotnet JsonRpc.Router.dll</c> with <paramref name="args"/>; does not wait for anything. Where this
    /// process ignores SIGINT (a shell starts background commands so, and an ignored signal stays ignored in children),
    /// the router is started through coreutils' <c>env --default-signal=INT</c> (which then execs it), so that it always
    /// hears Ctrl+C as a user's router would.
    /// </summary>
    public static RouterProcess Start(params string[] args) => new(ChildProcess.IsIgnoredHere(ChildProcess.SigInt)
        ? ChildProcess.Start("env", ["--default-signal=INT", ChildProcess.DotnetHost, Dll, .. args], workingDirectory: Path.GetDirectoryName(Dll))
        : ChildProcess.StartDotnet(Dll, args));

    /// <summary>
    /// Starts the router on 127.0.0.1 and a port it picks (<c>--port 0</c>, then <paramref name="args"/>) and waits,
    /// within <paramref name="timeout"/>, until it says where it listens.
    /// </summary>
    public static Task<RouterProcess> StartListeningAsync(IEnumerable<string> args, TimeSpan timeout)
        => ListeningAsync(Start(["--port", "0", .. args]), timeout);

    /// <summary>
    /// Starts a natively compiled router (<c>dotnet publish -p:PublishAot=true</c>), <paramref name="executable"/>, as
    /// <see cref="StartListeningAsync(IEnumerable{string}, TimeSpan)"/> starts the built one.
    /// </summary>
    public static Task<RouterProcess> StartNativeListeningAsync(string executable, IEnumerable<string> args, TimeSpan timeout)
        => ListeningAsync(new RouterProcess(ChildProcess.Start(executable, ["--port", "0", .. args], workingDirectory: Path.GetDirectoryName(executable))), timeout);

    private static async Task<RouterProcess> ListeningAsync(RouterProcess router, TimeSpan timeout)
    {
        try
        {
            var line = await router.WaitForLineAsync(ListeningLine(), timeout).ConfigureAwait(false);
            router.Port = int.Parse(line.Groups[1].Value, CultureInfo.InvariantCulture);
            return router;
        }
        catch
        {
            await router.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <inheritdoc cref="ChildProcess.WaitForLineAsync"/>
    public Task<Match> WaitForLineAsync(Regex pattern, TimeSpan timeout) => Process.WaitForLineAsync(pattern, timeout);

    /// <inheritdoc cref="ChildProcess.WaitForExitAsync"/>
    public Task<int> WaitForExitAsync(TimeSpan timeout) => Process.WaitForExitAsync(timeout);

    /// <summary>Asks the router to shut down gracefully, as Ctrl+C does: SIGINT, always (see <see cref="Start"/>).</summary>
    public void Interrupt() => Process.Signal(ChildProcess.SigInt);

    /// <summary>Kills it at once (SIGKILL): no shutdown, no goodbye to anyone.</summary>
    public void Kill() => Process.Kill();

    /// <summary>Kills the process tree if it still runs.</summary>
    public ValueTask DisposeAsync() => Process.DisposeAsync();
}
