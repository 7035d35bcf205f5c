using System.Text.Json;
using JsonRpc.Client;

namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>A CudaWorker process connected to a router; killed on dispose if it is still running.</summary>
internal sealed class RunningWorker : IAsyncDisposable
{
    private readonly ChildProcess _process;

    private RunningWorker(ChildProcess process, string name)
    {
        _process = process;
        Name = name;
    }

    public string Name { get; }

    /// <summary>What the worker wrote so far (its log is on stderr).</summary>
    public string Log => _process.Output;

    /// <summary>Starts a worker against the router on <paramref name="port"/> and waits until it provides its methods.</summary>
    public static async Task<RunningWorker> StartAsync(JsonRpcClient observer, int port, string? name, IReadOnlyDictionary<string, string>? environment = null)
    {
        var process = WorkerProcess.Start(environment ?? new Dictionary<string, string>(), ["--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture), .. name is null ? Array.Empty<string>() : ["--name", name]]);
        var worker = new RunningWorker(process, name ?? $"cuda-worker-{process.Id}");
        try
        {
            await Eventually.TrueAsync(() => worker.ProvidesAsync(observer), $"the worker provides gpu.matmul as {worker.Name}", TimeSpan.FromSeconds(20));
        }
        catch (Exception ex) when (ex is TimeoutException or InvalidOperationException)
        {
            var log = worker.Log;
            await worker.DisposeAsync();
            throw new InvalidOperationException($"{ex.Message} The worker's log: {log}", ex);
        }

        return worker;
    }

    /// <summary>Asks the worker to stop as a service manager would (SIGTERM) and returns its exit code.</summary>
    public Task<int> TerminateAsync()
    {
        _process.Signal(ChildProcess.SigTerm);
        return _process.WaitForExitAsync(TimeSpan.FromSeconds(15));
    }

    public ValueTask DisposeAsync() => _process.DisposeAsync();

    private async ValueTask<bool> ProvidesAsync(JsonRpcClient observer)
    {
        if (_process.HasExited)
        {
            throw new InvalidOperationException("The worker exited before providing its methods.");
        }

        var methods = await observer.CallAsync("list_methods").AsTask().WaitAsync(TimeSpan.FromSeconds(10));
        using var document = JsonDocument.Parse(methods.Utf8);
        foreach (var entry in document.RootElement.EnumerateArray())
        {
            if (entry.GetProperty("method").GetString() == "gpu.matmul"
                && entry.GetProperty("providers").EnumerateArray().Any(provider => provider.GetString() == Name))
            {
                return true;
            }
        }

        return false;
    }
}
