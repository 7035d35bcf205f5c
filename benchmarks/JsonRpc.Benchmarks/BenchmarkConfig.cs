using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Order;
using BenchmarkDotNet.Reports;

namespace JsonRpc.Benchmarks;

/// <summary>
/// The configuration every benchmark class runs with: allocations measured, ratios against the class's baseline,
/// and only the GitHub-markdown report, written to <c>benchmarks/results/</c>.
/// </summary>
internal static class BenchmarkConfig
{
    public static IConfig Create(string artifactsPath)
    {
        var defaults = DefaultConfig.Instance;
        var config = ManualConfig.CreateEmpty()
            .AddJob(CreateJob())
            .AddDiagnoser(MemoryDiagnoser.Default)
            .AddColumnProvider(DefaultColumnProviders.Instance)
            .AddExporter(MarkdownExporter.GitHub)
            .AddLogger(ConsoleLogger.Default)
            .AddAnalyser(defaults.GetAnalysers().ToArray())
            .AddValidator(defaults.GetValidators().ToArray())
            .WithSummaryStyle(SummaryStyle.Default.WithRatioStyle(RatioStyle.Trend))
            .WithOrderer(new DefaultOrderer(SummaryOrderPolicy.Declared))
            .WithArtifactsPath(artifactsPath);
        return config;
    }

    /// <summary>
    /// A short job: the machine has two cores shared with builds, so many short iterations (and the median) say more
    /// than a few long ones, and the whole suite stays within minutes.
    /// </summary>
    private static Job CreateJob()
        => Job.Default
            .WithId("Short")
            .WithLaunchCount(1)
            .WithWarmupCount(5)
            .WithIterationCount(15)
            .WithIterationTime(Perfolizer.Horology.TimeInterval.FromMilliseconds(250));
}
