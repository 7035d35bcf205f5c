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
    /// <summary>The argument that picks <see cref="CreateLongJob"/> instead of the short job (taken out before BenchmarkDotNet sees the rest).</summary>
    public const string LongJobArgument = "--long-job";

    public static IConfig Create(string artifactsPath, bool longJob = false)
    {
        var defaults = DefaultConfig.Instance;
        var config = ManualConfig.CreateEmpty()
            .AddJob(longJob ? CreateLongJob() : CreateJob())
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

    /// <summary>
    /// A longer job for claims that need a small error on a noisy VM: two processes (so one unlucky launch shows), more
    /// warm-up and three times the iterations of the short job. About 20 s per case.
    /// </summary>
    private static Job CreateLongJob()
        => Job.Default
            .WithId("Long")
            .WithLaunchCount(2)
            .WithWarmupCount(8)
            .WithIterationCount(30)
            .WithIterationTime(Perfolizer.Horology.TimeInterval.FromMilliseconds(250));
}
