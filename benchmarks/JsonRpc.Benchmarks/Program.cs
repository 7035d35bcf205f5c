using BenchmarkDotNet.Running;
using JsonRpc.Benchmarks;

// Reports go to <repo>/benchmarks/results/ (BenchmarkDotNet writes them to <artifacts>/results/).
var artifacts = FindBenchmarksFolder() ?? Path.Combine(Environment.CurrentDirectory, "BenchmarkDotNet.Artifacts");
BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args, BenchmarkConfig.Create(artifacts));

static string? FindBenchmarksFolder()
{
    for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
    {
        if (File.Exists(Path.Combine(dir.FullName, "JsonRpc.sln")))
        {
            return Path.Combine(dir.FullName, "benchmarks");
        }
    }

    return null;
}
