using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;

namespace JsonRpc.Server.Tests;

/// <summary>The standalone router as operators run it: a security file on its command line, edited while it runs.</summary>
public sealed partial class StandaloneRouterSecurityTests(ITestOutputHelper output)
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(45);

    [GeneratedRegex(@"listening on tcp://127\.0\.0\.1:(\d+)")]
    private static partial Regex ListeningLine();

    [GeneratedRegex("Security configuration reloaded")]
    private static partial Regex ReloadedLine();

    [GeneratedRegex("not reloaded.*security settings are now empty")]
    private static partial Regex EmptiedLine();

    private static string Sha256(string token) => Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(token)));

    private static string Rules(string webCalls) => $$"""
        {
          "Tokens": [
            { "Identity": "web", "Sha256": "{{Sha256("web-token-1")}}" },
            { "Identity": "calc", "Token": "calc-token-2" }
          ],
          "Identities": {
            "web": { "Call": {{webCalls}}, "Provide": [] },
            "calc": { "Provide": [ "calc.>" ], "Call": [] }
          }
        }
        """;

    [Fact]
    public async Task RouterProcess_SecurityFileWithBadPattern_ExitsNonZeroNamingTheEntryAndNeverTheToken()
    {
        var directory = Directory.CreateTempSubdirectory("jsonrpc-security-");
        var file = Path.Combine(directory.FullName, "security.json");
        await File.WriteAllTextAsync(file, $$"""
            {
              "Tokens": [
                { "Identity": "web", "Token": "web-secret-token-9c1f" },
                { "Identity": "calc", "Token": "calc-secret-token-77ab", "Sha256": "{{Sha256("calc-secret-token-77ab")}}" }
              ],
              "Identities": { "web": { "Call": [ "billing.>.x" ] } }
            }
            """);

        var result = await ChildProcess.RunAsync(RouterProcess.Dll, ["--port", "0", "--security_file", file], timeout: Bound);
        output.WriteLine(result.Stdout);
        output.WriteLine(result.Stderr);

        Assert.NotEqual(0, result.ExitCode);
        var all = result.Stdout + result.Stderr;
        Assert.Contains(all.Split('\n'), static line => line.Contains("Security:Identities:web:Call:Allow:0", StringComparison.Ordinal));
        Assert.Contains(all.Split('\n'), static line => line.Contains("Security:Tokens:1", StringComparison.Ordinal)); // both Token and Sha256
        Assert.DoesNotContain("web-secret-token-9c1f", all, StringComparison.Ordinal);
        Assert.DoesNotContain("calc-secret-token-77ab", all, StringComparison.Ordinal);
        Assert.DoesNotContain("listening on", all, StringComparison.Ordinal);
        directory.Delete(recursive: true);
    }

    [Fact]
    public async Task RouterProcess_SecurityFileEdited_NewRulesEnforcedWithoutRestartAndSecretsNeverLogged()
    {
        var directory = Directory.CreateTempSubdirectory("jsonrpc-security-");
        var file = Path.Combine(directory.FullName, "security.json");
        await File.WriteAllTextAsync(file, Rules("""[ "calc.add" ]"""));
        var dll = RepositoryLayout.BuiltFile(Path.Combine("src", "JsonRpc.Router"), "JsonRpc.Router.dll");
        await using var process = ChildProcess.StartDotnet(dll, ["--port", "0", "--security_file", file]);
        try
        {
            var listening = await process.WaitForLineAsync(ListeningLine(), Bound);
            var port = int.Parse(listening.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
            await using var provider = await LineClient.ConnectAsync(port);
            await provider.RegisterAsync("calc.1", "calc-token-2");
            await provider.ProvideAsync("calc.add");
            await provider.ProvideAsync("calc.mul");

            await using var web = await LineClient.ConnectAsync(port);
            var signedIn = await web.CallAsync("authenticate", """{"token":"web-token-1"}""");
            Assert.Equal("web", signedIn.GetProperty("result").GetProperty("identity").GetString());

            await web.SendAsync(LineClient.Request(1, "calc.add", "[1,2]"));
            await provider.ServeOneAsync("3");
            Answer.IsResult(await web.ReadAsync(Bound), "3");
            Answer.IsError(await web.CallAsync("calc.mul", "[2,3]"), RouterErrorCodes.PermissionDenied);

            // The provider answers whatever reaches it from now on.
            using var stop = new CancellationTokenSource();
            var serving = Task.Run(async () =>
            {
                while (!stop.IsCancellationRequested)
                {
                    try
                    {
                        await provider.ServeOneAsync("6");
                    }
                    catch (TimeoutException)
                    {
                    }
                }
            });

            // Widened while it runs: the same open connection may now call calc.mul.
            await File.WriteAllTextAsync(file, Rules("""[ "calc.*" ]"""));
            await Eventually.TrueAsync(async () => (await web.CallAsync("calc.mul", "[2,3]")).TryGetProperty("result", out _),
                "the widened rule is in force", TimeSpan.FromSeconds(30));
            await process.WaitForLineAsync(ReloadedLine(), Bound);

            // The web token removed: the connection is no longer authenticated, and stays open.
            await File.WriteAllTextAsync(file, Rules("""[ "calc.*" ]""").Replace(Sha256("web-token-1"), Sha256("another-token"), StringComparison.Ordinal));
            await Eventually.TrueAsync(async () => (await web.CallAsync("calc.add", "[1,1]")).TryGetProperty("error", out var e)
                && e.GetProperty("code").GetInt32() == RouterErrorCodes.NotAuthenticated, "the removed token no longer authenticates", TimeSpan.FromSeconds(30));
            Answer.IsResult(await web.CallAsync("keepAlive"), "true");

            // Emptied by mistake: security stays on (switching it off takes a restart), and says so.
            await File.WriteAllTextAsync(file, "{}");
            await process.WaitForLineAsync(EmptiedLine(), Bound);
            Answer.IsError(await web.CallAsync("calc.add", "[1,1]"), RouterErrorCodes.NotAuthenticated);

            await stop.CancelAsync();
            await provider.DisposeAsync();
            await serving.WaitAsync(Bound).ContinueWith(static _ => { }, TaskScheduler.Default);

            // Tokens never reach the log.
            Assert.DoesNotContain("web-token-1", process.Output, StringComparison.Ordinal);
            Assert.DoesNotContain("calc-token-2", process.Output, StringComparison.Ordinal);
            Assert.Contains("Refused (call): identity web", process.Output, StringComparison.Ordinal);
        }
        finally
        {
            output.WriteLine(process.Output);
            directory.Delete(recursive: true);
        }
    }
}
