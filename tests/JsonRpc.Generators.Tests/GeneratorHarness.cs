using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace JsonRpc.Generators.Tests;

/// <summary>Compiles a snippet with the contract generator, against the framework and, when asked, JsonRpc.Client.</summary>
internal static class GeneratorHarness
{
    private static readonly ImmutableArray<MetadataReference> Framework = [.. ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!)
        .Split(Path.PathSeparator)
        .Where(path => Path.GetFileName(path).StartsWith("System.", StringComparison.Ordinal) || Path.GetFileName(path) is "netstandard.dll" or "mscorlib.dll")
        .Select(path => MetadataReference.CreateFromFile(path))];

    private static readonly MetadataReference Core = MetadataReference.CreateFromFile(typeof(JsonRpc.Dispatch.JsonRpcDispatcher).Assembly.Location);

    private static readonly MetadataReference Client = MetadataReference.CreateFromFile(typeof(JsonRpc.Client.JsonRpcClient).Assembly.Location);

    public sealed record Result(ImmutableArray<Diagnostic> GeneratorDiagnostics, ImmutableArray<Diagnostic> CompileErrors, ImmutableArray<string> Generated);

    public static Result Run(string source, bool withClient = true)
    {
        var references = withClient ? Framework.Add(Core).Add(Client) : Framework.Add(Core);
        var parseOptions = new CSharpParseOptions(LanguageVersion.Preview);
        var compilation = CSharpCompilation.Create(
            "Snippet",
            [CSharpSyntaxTree.ParseText(source, parseOptions, path: "Snippet.cs")],
            references,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable));
        GeneratorDriver driver = CSharpGeneratorDriver.Create([new JsonRpcContractGenerator().AsSourceGenerator()], parseOptions: parseOptions);
        driver = driver.RunGeneratorsAndUpdateCompilation(compilation, out var output, out var diagnostics);
        var generated = driver.GetRunResult().GeneratedTrees.Select(tree => tree.ToString()).ToImmutableArray();
        var errors = output.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToImmutableArray();
        return new Result(diagnostics, errors, generated);
    }

    public const string Usings = """
        using System;
        using System.Collections.Generic;
        using System.Threading;
        using System.Threading.Tasks;
        using JsonRpc.Contracts;

        """;
}
