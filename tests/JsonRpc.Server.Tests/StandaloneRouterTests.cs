using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;
using JsonRpc.Server.Tests.Infrastructure;

namespace JsonRpc.Server.Tests;

/// <summary>The standalone router as a real process: start, serve, Ctrl+C, clean exit.</summary>
public sealed partial class StandaloneRouterTests(ITestOutputHelper output)
{
    [DllImport("libc", SetLastError = true)]
    private static extern int kill(int pid, int signal);

    [GeneratedRegex(@"listening on tcp://127\.0\.0\.1:(\d+)")]
    private static partial Regex ListeningLine();

    [Fact]
    public async Task Router_Process_ServesCallsAndShutsDownGracefullyOnSigint()
    {
        var dll = FindRouterDll();
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = Path.GetDirectoryName(dll)!,
        };
        foreach (var arg in new[] { dll, "--port", "0", "--shutdown_timeout_ms", "200", "--call_timeout_ms", "20000" })
        {
            start.ArgumentList.Add(arg);
        }

        start.Environment["DOTNET_NOLOGO"] = "1";
        using var process = Process.Start(start)!;
        var log = new StringBuilder();
        var port = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is null)
            {
                return;
            }

            lock (log)
            {
                log.AppendLine(e.Data);
            }

            if (ListeningLine().Match(e.Data) is { Success: true } match)
            {
                port.TrySetResult(int.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture));
            }
        };
        process.ErrorDataReceived += (_, e) =>
        {
            lock (log)
            {
                log.AppendLine(e.Data);
            }
        };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        try
        {
            var routerPort = await port.Task.WaitAsync(TimeSpan.FromSeconds(30));
            await using var provider = await LineClient.ConnectAsync(routerPort);
            await provider.RegisterAsync("p");
            await provider.ProvideAsync("slow");
            await using var caller = await LineClient.ConnectAsync(routerPort);
            Answer.IsResult(await caller.CallAsync("keepAlive"), "true");
            await caller.SendAsync(LineClient.Request("waiting", "slow"));
            await provider.ReadAsync();

            Assert.Equal(0, kill(process.Id, 2)); // SIGINT, as Ctrl+C
            var answer = await caller.ReadAsync(TimeSpan.FromSeconds(10));
            Answer.IsError(answer, RouterErrorCodes.ShuttingDown);
            Assert.Equal("waiting", answer.GetProperty("id").GetString());
            await caller.AssertClosedAsync(TimeSpan.FromSeconds(10));

            await process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(20));
            Assert.Equal(0, process.ExitCode);
            lock (log)
            {
                Assert.Contains("Router shutting down", log.ToString());
            }
        }
        finally
        {
            if (!process.HasExited)
            {
                process.Kill(entireProcessTree: true);
            }

            lock (log)
            {
                output.WriteLine(log.ToString());
            }
        }
    }

    internal static string FindRouterDll()
    {
        // tests/JsonRpc.Server.Tests/bin/<Configuration>/net10.0/ -> src/JsonRpc.Router/bin/<Configuration>/net10.0/
        var baseDirectory = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
        var framework = baseDirectory.Name;
        var configuration = baseDirectory.Parent!.Name;
        var root = baseDirectory;
        while (root is not null && !File.Exists(Path.Combine(root.FullName, "JsonRpc.sln")))
        {
            root = root.Parent;
        }

        Assert.NotNull(root);
        var dll = Path.Combine(root!.FullName, "src", "JsonRpc.Router", "bin", configuration, framework, "JsonRpc.Router.dll");
        Assert.True(File.Exists(dll), $"{dll} is not built");
        return dll;
    }
}
