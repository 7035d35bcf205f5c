namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>Runs the built CudaWorker (or another sample built next to the tests) as a real process to its exit, bounded in time.</summary>
internal static class WorkerProcess
{
    public static Task<ProcessResult> RunAsync(params string[] args)
        => RunAsync(new Dictionary<string, string>(), args);

    public static Task<ProcessResult> RunAsync(IReadOnlyDictionary<string, string> environment, params string[] args)
        => RunSampleAsync("CudaWorker.dll", environment, args);

    /// <summary>Runs any sample built next to the tests (e.g. <c>Calculator.dll</c>) to its exit, bounded in time.</summary>
    public static Task<ProcessResult> RunSampleAsync(string dll, IReadOnlyDictionary<string, string> environment, params string[] args)
        => ChildProcess.RunAsync(Sample(dll), args, environment);

    /// <summary>Starts the built worker with <paramref name="args"/>; the caller disposes it.</summary>
    public static ChildProcess Start(IReadOnlyDictionary<string, string> environment, IEnumerable<string> args)
        => ChildProcess.StartDotnet(Sample("CudaWorker.dll"), args, environment);

    private static string Sample(string dll)
    {
        var path = Path.Combine(AppContext.BaseDirectory, dll);
        Assert.True(File.Exists(path), $"The sample is not built next to the tests: {path}");
        return path;
    }
}
