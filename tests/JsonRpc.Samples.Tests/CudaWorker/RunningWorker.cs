using System.Diagnostics;
using System.Text;
using System.Text.Json;
using JsonRpc.Client;

namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>A CudaWorker process connected to a router; killed on dispose if it is still running.</summary>
internal sealed class RunningWorker : IAsyncDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _stderr = new();

    private RunningWorker(Process process, string name)
    {
        _process = process;
        Name = name;
    }

    public string Name { get; }

    /// <summary>What the worker wrote so far (its log is on stderr).</summary>
    public string Log
    {
        get
        {
            lock (_stderr)
            {
                return _stderr.ToString();
            }
        }
    }

    /// <summary>Starts a worker against the router on <paramref name="port"/> and waits until it provides its methods.</summary>
    public static async Task<RunningWorker> StartAsync(JsonRpcClient observer, int port, string? name, IReadOnlyDictionary<string, string>? environment = null)
    {
        var start = WorkerProcess.StartInfo(environment ?? new Dictionary<string, string>(), ["--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture), .. name is null ? Array.Empty<string>() : ["--name", name]]);
        var process = Process.Start(start)!;
        var worker = new RunningWorker(process, name ?? $"cuda-worker-{process.Id}");
        process.ErrorDataReceived += (_, line) => worker.Append(line.Data);
        process.OutputDataReceived += (_, line) => worker.Append(line.Data);
        process.BeginErrorReadLine();
        process.BeginOutputReadLine();
        process.StandardInput.Close();
        try
        {
            await worker.WaitProvidingAsync(observer);
        }
        catch
        {
            await worker.DisposeAsync();
            throw;
        }

        return worker;
    }

    private void Append(string? line)
    {
        lock (_stderr)
        {
            _stderr.AppendLine(line);
        }
    }

    /// <summary>Asks the worker to stop as a service manager would (SIGTERM) and returns its exit code.</summary>
    public async Task<int> TerminateAsync()
    {
        using (var kill = Process.Start("kill", ["-TERM", _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
        {
            await kill.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(10));
        }

        await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(15));
        return _process.ExitCode;
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(10));
        }

        _process.Dispose();
    }

    private async Task WaitProvidingAsync(JsonRpcClient observer)
    {
        var deadline = Stopwatch.StartNew();
        while (true)
        {
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"The worker exited with code {_process.ExitCode}: {Log}");
            }

            var methods = await observer.CallAsync("list_methods").AsTask().WaitAsync(TimeSpan.FromSeconds(10));
            using (var document = JsonDocument.Parse(methods.Utf8))
            {
                foreach (var entry in document.RootElement.EnumerateArray())
                {
                    if (entry.GetProperty("method").GetString() == "gpu.matmul"
                        && entry.GetProperty("providers").EnumerateArray().Any(provider => provider.GetString() == Name))
                    {
                        return;
                    }
                }
            }

            if (deadline.Elapsed > TimeSpan.FromSeconds(20))
            {
                throw new TimeoutException($"The worker did not provide gpu.matmul within 20 s: {Log}");
            }

            await Task.Delay(50);
        }
    }
}
