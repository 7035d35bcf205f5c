using System.Text.RegularExpressions;

namespace JsonRpc.Samples.Tests.Calculator;

/// <summary>
/// The calculator's contract (a plain call, a stream, progress) compiled ahead of time, as a user publishes it, talking
/// through the router compiled the same way: the generated proxy and target must work without reflection or run-time
/// code generation. .ci/run publishes both (<c>dotnet publish -r linux-x64 -p:PublishAot=true</c>, failing on any trim
/// or AOT warning) into the folder named by <c>JSONRPC_NATIVE_AOT_DIR</c>.
/// </summary>
public partial class CalculatorNativeAotTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    [GeneratedRegex("calculator registered with the router")]
    private static partial Regex Registered();

    [NativeAotFact]
    public async Task NativeProviderAndCaller_ThroughNativeRouter_GetEveryAnswer()
    {
        var folder = NativeAotFactAttribute.Folder!;
        var calculator = Path.Combine(folder, "calculator", "Calculator");
        Assert.True(File.Exists(calculator), $"No native calculator at {calculator}");
        await using var router = await RouterProcess.StartNativeListeningAsync(Path.Combine(folder, "router", "JsonRpc.Router"), [], Timeout);
        var port = router.Port.ToString(System.Globalization.CultureInfo.InvariantCulture);
        await using var provider = ChildProcess.Start(calculator, ["provider", "--port", port]);
        await provider.WaitForLineAsync(Registered(), Timeout);

        await using var caller = ChildProcess.Start(calculator, ["caller", "--port", port]);
        var exitCode = await caller.WaitForExitAsync(Timeout);

        var output = caller.Output;
        Assert.True(exitCode == 0, output);
        Assert.Contains("calculator.SubtractAsync(42, 23) = 19", output, StringComparison.Ordinal);
        Assert.Contains("calculator.CountAsync(1, 5) = 1 2 3 4 5", output, StringComparison.Ordinal);
        Assert.Contains("calculator.SumAsync([1, 2, 3, 4]) reports = 1 3 6 10", output, StringComparison.Ordinal);
        Assert.Contains("all answers correct", output, StringComparison.Ordinal);
    }
}

/// <summary>
/// A test of natively compiled programs: skipped, saying why, where <c>JSONRPC_NATIVE_AOT_DIR</c> names no folder
/// (a bare <c>dotnet test</c>); under CI (CI=true), where .ci/run publishes them, it never skips.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class NativeAotFactAttribute : FactAttribute
{
    public NativeAotFactAttribute()
    {
        Skip = RequiredServer.SkipIfAbsent(Folder is not null,
            "JSONRPC_NATIVE_AOT_DIR names no folder: .ci/run publishes the router and the calculator with PublishAot=true there.");
    }

    /// <summary>The folder with <c>router/JsonRpc.Router</c> and <c>calculator/Calculator</c>, or null.</summary>
    public static string? Folder => Environment.GetEnvironmentVariable("JSONRPC_NATIVE_AOT_DIR") is { Length: > 0 } folder && Directory.Exists(folder) ? folder : null;
}
