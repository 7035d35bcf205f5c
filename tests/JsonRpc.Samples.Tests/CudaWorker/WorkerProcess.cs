using System.Diagnostics;

namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>Runs the built CudaWorker as a real process and collects its exit code and output, bounded in time.</summary>
internal static class WorkerProcess
{
    public static Task<(int ExitCode, string Stdout, string Stderr)> RunAsync(params string[] args)
        => RunAsync(new Dictionary<string, string>(), args);

    public static Task<(int ExitCode, string Stdout, string Stderr)> RunAsync(IReadOnlyDictionary<string, string> environment, params string[] args)
        => RunSampleAsync("CudaWorker.dll", environment, args);

    /// <summary>Runs any sample built next to the tests (e.g. <c>Calculator.dll</c>) to its exit, bounded in time.</summary>
    public static async Task<(int ExitCode, string Stdout, string Stderr)> RunSampleAsync(string dll, IReadOnlyDictionary<string, string> environment, params string[] args)
    {
        var start = StartInfo(environment, args, dll);
        using var process = Process.Start(start)!;
        process.StandardInput.Close();
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        try
        {
            await process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }

        return (process.ExitCode, await stdout.WaitAsync(TimeSpan.FromSeconds(5)), await stderr.WaitAsync(TimeSpan.FromSeconds(5)));
    }

    /// <summary>How to start the built worker with <paramref name="args"/>, every stream redirected.</summary>
    public static ProcessStartInfo StartInfo(IReadOnlyDictionary<string, string> environment, IEnumerable<string> args, string dll = "CudaWorker.dll")
    {
        var worker = Path.Combine(AppContext.BaseDirectory, dll);
        Assert.True(File.Exists(worker), $"The sample is not built next to the tests: {worker}");
        var start = new ProcessStartInfo(DotnetHost())
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(worker);
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        foreach (var (name, value) in environment)
        {
            start.Environment[name] = value;
        }

        return start;
    }

    private static string DotnetHost()
    {
        // The SDK tells test hosts which dotnet runs them; fall back to the one running this process, then PATH.
        if (Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host && File.Exists(host))
        {
            return host;
        }

        var current = Environment.ProcessPath;
        return current is not null && Path.GetFileNameWithoutExtension(current) == "dotnet" ? current : "dotnet";
    }
}
