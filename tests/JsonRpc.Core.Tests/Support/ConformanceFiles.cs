namespace JsonRpc.Core.Tests.Support;

/// <summary>Where the conformance data copied next to the test assembly lies.</summary>
internal static class ConformanceFiles
{
    public static string Root => Path.Combine(AppContext.BaseDirectory, "Conformance");

    public static string SpecExamples => Path.Combine(Root, "spec_examples.jsonl");

    public static string JsonTestSuite => Path.Combine(Root, "JSONTestSuite", "test_parsing");

    public static string StrictOverrides => Path.Combine(Root, "JSONTestSuite", "strict_profile_overrides.json");
}
