using System.Text;
using BenchmarkDotNet.Attributes;
using JsonRpc.Server.Security;

namespace JsonRpc.Benchmarks.Security;

/// <summary>
/// One permission check, <see cref="CompiledPermission.IsAllowed(ReadOnlySpan{byte}, out string?)"/> over a UTF-8
/// method name, against the 100-rule call permission of <see cref="SecurityBenchmarkPolicy"/> as the router merges it.
/// A literal name is decided when the policy is compiled, and a name the patterns decided is remembered, so a check the
/// router repeats is one hash lookup; the "patterns" rows compile the same rules without remembering, so that each
/// check runs the patterns (as the first check of each name does): the name's first token looked up among the
/// patterns' first tokens, then the <c>*.…</c> patterns whose token count fits.
/// </summary>
public class PermissionCheckBenchmarks
{
    private CompiledPermission _permission = null!;
    private CompiledPermission _patternsOnly = null!;
    private readonly byte[] _allowedLiteral = Encoding.UTF8.GetBytes("svc3.method4");
    private readonly byte[] _allowedWildcard = Encoding.UTF8.GetBytes(SecurityBenchmarkPolicy.RoutedMethod);
    private readonly byte[] _deniedLiteral = Encoding.UTF8.GetBytes("team12.admin");
    private readonly byte[] _deniedByPattern = Encoding.UTF8.GetBytes("payments.internal.keys");
    private readonly byte[] _noMatch = Encoding.UTF8.GetBytes("reports.monthly");

    [GlobalSetup]
    public void Setup()
    {
        _permission = SecurityBenchmarkPolicy.CallerCallPermission();
        _patternsOnly = SecurityBenchmarkPolicy.PatternsOnly();
        Check(PatternsWildcard(), true, SecurityBenchmarkPolicy.RoutedMethod);
        Check(PatternsDeniedByPattern(), false, "payments.internal.keys");
        Check(PatternsNoMatch(), false, "reports.monthly");
        Check(AllowedLiteral(), true, "svc3.method4");
        Check(AllowedWildcard(), true, SecurityBenchmarkPolicy.RoutedMethod);
        Check(DeniedLiteral(), false, "team12.admin");
        Check(DeniedByPattern(), false, "payments.internal.keys");
        Check(NoMatch(), false, "reports.monthly");
        _permission.IsAllowed(_deniedByPattern, out var rule);
        if (rule != "*.internal.>")
        {
            throw new InvalidOperationException($"payments.internal.keys was refused by '{rule}', not '*.internal.>'.");
        }
    }

    [Benchmark(Description = "allowed: literal (svc3.method4)")]
    public bool AllowedLiteral() => _permission.IsAllowed(_allowedLiteral, out _);

    [Benchmark(Description = "allowed: by team19.*, remembered (team19.echo)")]
    public bool AllowedWildcard() => _permission.IsAllowed(_allowedWildcard, out _);

    [Benchmark(Description = "denied: literal (team12.admin)")]
    public bool DeniedLiteral() => _permission.IsAllowed(_deniedLiteral, out _);

    [Benchmark(Description = "denied: by *.internal.>, remembered (payments.internal.keys)")]
    public bool DeniedByPattern() => _permission.IsAllowed(_deniedByPattern, out _);

    [Benchmark(Description = "no rule matches, remembered (reports.monthly)")]
    public bool NoMatch() => _permission.IsAllowed(_noMatch, out _);

    [Benchmark(Description = "patterns: allowed by team19.* (team19.echo)")]
    public bool PatternsWildcard() => _patternsOnly.IsAllowed(_allowedWildcard, out _);

    [Benchmark(Description = "patterns: denied by *.internal.> (payments.internal.keys)")]
    public bool PatternsDeniedByPattern() => _patternsOnly.IsAllowed(_deniedByPattern, out _);

    [Benchmark(Description = "patterns: no rule matches (reports.monthly)")]
    public bool PatternsNoMatch() => _patternsOnly.IsAllowed(_noMatch, out _);

    private static void Check(bool actual, bool expected, string name)
    {
        if (actual != expected)
        {
            throw new InvalidOperationException($"{name}: allowed is {actual}, expected {expected}.");
        }
    }
}
