namespace JsonRpc.Testing;

/// <summary>
/// For tests that need a real server from Debian's packages (nats-server, chromium, prometheus): where it is absent they skip with
/// the reason, so that a bare `dotnet test` passes; under CI (CI=true), where .ci/run installs them, they never skip,
/// so that a missing server fails the run with that reason instead of leaving it green on nothing.
/// </summary>
public static class RequiredServer
{
    /// <summary>Whether this is a CI run, where every required server must be there.</summary>
    public static bool IsCi => string.Equals(Environment.GetEnvironmentVariable("CI"), "true", StringComparison.OrdinalIgnoreCase);

    /// <summary>The skip reason to set: <paramref name="reason"/> when the server is absent outside CI, else null.</summary>
    public static string? SkipIfAbsent(bool available, string reason) => available || IsCi ? null : reason;

    /// <summary>The skip reason of a test that needs Debian's prometheus (<see cref="PrometheusServer"/>), or null.</summary>
    public static string? SkipIfNoPrometheus() => SkipIfAbsent(PrometheusServer.IsAvailable, PrometheusServer.SkipReason);
}
