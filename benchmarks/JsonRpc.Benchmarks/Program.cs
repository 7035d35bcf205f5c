using BenchmarkDotNet.Running;
using JsonRpc.Benchmarks;

// The security suite's paired A/B of a routed call (see Security/PairedSecurityRun.cs), outside BenchmarkDotNet.
if (args.Length > 0 && args[0] == "--paired-security")
{
    return JsonRpc.Benchmarks.Security.PairedSecurityRun.Run(args);
}

// Reports go to <repo>/benchmarks/results/ (BenchmarkDotNet writes them to <artifacts>/results/).
var artifacts = FindBenchmarksFolder() ?? Path.Combine(Environment.CurrentDirectory, "BenchmarkDotNet.Artifacts");
var longJob = args.Contains(BenchmarkConfig.LongJobArgument);
BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly)
    .Run(args.Where(a => a != BenchmarkConfig.LongJobArgument).ToArray(), BenchmarkConfig.Create(artifacts, longJob));
return 0;

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
