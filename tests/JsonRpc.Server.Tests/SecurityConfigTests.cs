using System.Diagnostics;
using System.Text;
using System.Text.RegularExpressions;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Logging;
using static JsonRpc.Testing.Lines.SecurityKit;

namespace JsonRpc.Server.Tests;

/// <summary>
/// The security configuration: binding from JSON, the errors a bad one gives, reloading it while the router runs (in
/// code and from a file on disk), the audit log, and the router without it (exactly as before).
/// </summary>
public sealed partial class SecurityConfigTests(ITestOutputHelper output)
{
    private static IConfiguration Json(string json)
        => new ConfigurationBuilder().AddJsonStream(new MemoryStream(Encoding.UTF8.GetBytes(json))).Build();

    private static JsonRpcSecurityOptions? ReadSecurity(string json) => JsonRpcSecurityConfiguration.Read(Json(json).GetSection("JsonRpcRouter:Security"));

    [Fact]
    public void Read_JsonConfiguration_BindsEverySetting()
    {
        var security = ReadSecurity("""
            {"JsonRpcRouter":{"Security":{
              "Tokens":[{"Identity":"billing","Sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08","Roles":["svc"]},
                        {"Identity":"web","Token":"web-secret"}],
              "Jwt":{"Issuers":["https://login.test"],"Audiences":["jsonrpc"],"KeyFiles":["issuer.pem"],"JwksFile":"keys.json",
                     "HmacKeys":["AAAA"],"IdentityClaim":"client_id","RolesClaim":"groups","ClockSkew":"00:00:05"},
              "Certificates":[{"Identity":"edge","Thumbprint":"AB:CD"},{"Identity":"ca","Subject":"CN=ca-client","Roles":["svc"]}],
              "ClientCertificateCaFile":"ca.pem",
              "Identities":{
                "billing":{"Provide":["billing.>"],"ClientNames":["billing.*"],"Quota":{"CallsPerSecond":500.5,"Burst":50,"MaxCallsInFlight":10,"MaxConnections":3}},
                "web":{"Roles":["reader"],"Call":{"Allow":["billing.charge"],"Deny":["billing.refund"]},"Monitor":true}
              },
              "Roles":{"reader":{"Subscribe":{"Deny":["audit.>"]},"Publish":[]}},
              "Default":{"Call":{"Deny":["admin.>"]}},
              "Anonymous":{"Call":["public.*"]},
              "AuditLogsPerSecond":3
            }}}
            """)!;

        Assert.Equal(["billing", "web"], security.Tokens.Select(static t => t.Identity));
        Assert.Null(security.Tokens[0].Token);
        Assert.Equal("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", security.Tokens[0].Sha256);
        Assert.Equal(["svc"], security.Tokens[0].Roles);
        Assert.Equal("web-secret", security.Tokens[1].Token);

        var jwt = security.Jwt!;
        Assert.Equal(["https://login.test"], jwt.Issuers);
        Assert.Equal(["jsonrpc"], jwt.Audiences);
        Assert.Equal(["issuer.pem"], jwt.KeyFiles);
        Assert.Equal("keys.json", jwt.JwksFile);
        Assert.Equal(["AAAA"], jwt.HmacKeys);
        Assert.Equal("client_id", jwt.IdentityClaim);
        Assert.Equal("groups", jwt.RolesClaim);
        Assert.Equal(TimeSpan.FromSeconds(5), jwt.ClockSkew);

        Assert.Equal("AB:CD", security.Certificates[0].Thumbprint);
        Assert.Equal("CN=ca-client", security.Certificates[1].Subject);
        Assert.Equal(["svc"], security.Certificates[1].Roles);
        Assert.Equal("ca.pem", security.ClientCertificateCaFile);

        var billing = security.Identities["billing"];
        Assert.Equal(["billing.>"], billing.Provide.Allow!);
        Assert.Empty(billing.Provide.Deny);
        Assert.Equal(["billing.*"], billing.ClientNames.Allow!);
        Assert.Null(billing.Call.Allow); // not given: restricts nothing
        Assert.Equal(500.5, billing.Quota!.CallsPerSecond);
        Assert.Equal(50, billing.Quota.Burst);
        Assert.Equal(10, billing.Quota.MaxCallsInFlight);
        Assert.Equal(3, billing.Quota.MaxConnections);
        Assert.False(billing.Monitor);

        var web = security.Identities["web"];
        Assert.Equal(["reader"], web.Roles);
        Assert.Equal(["billing.charge"], web.Call.Allow!);
        Assert.Equal(["billing.refund"], web.Call.Deny);
        Assert.True(web.Monitor);
        Assert.Null(web.Quota);

        var reader = security.Roles["reader"];
        Assert.Null(reader.Subscribe.Allow);
        Assert.Equal(["audit.>"], reader.Subscribe.Deny);
        Assert.NotNull(reader.Publish.Allow); // an empty list is kept: it allows nothing
        Assert.Empty(reader.Publish.Allow);

        Assert.Equal(["admin.>"], security.Default!.Call.Deny);
        Assert.Equal(["public.*"], security.Anonymous!.Call.Allow!);
        Assert.Equal(3, security.AuditLogsPerSecond);
    }

    [Fact]
    public void Read_NoSecuritySection_IsNull()
    {
        Assert.Null(ReadSecurity("""{"JsonRpcRouter":{"Port":1}}"""));
    }

    [Theory]
    [InlineData("""{"Identities":{"web":{"Cal":["x"]}}}""", "JsonRpcRouter:Security:Identities:web:Cal")]
    [InlineData("""{"Identities":{"web":{"Call":{"Alow":["x"]}}}}""", "JsonRpcRouter:Security:Identities:web:Call:Alow")]
    [InlineData("""{"Tokenz":[]}""", "JsonRpcRouter:Security:Tokenz")]
    [InlineData("""{"Tokens":[{"Identity":"a","Token":"t","Role":["r"]}]}""", "JsonRpcRouter:Security:Tokens:0:Role")]
    [InlineData("""{"Jwt":{"Issuer":"x"}}""", "JsonRpcRouter:Security:Jwt:Issuer")]
    [InlineData("""{"Roles":{"r":{"Quota":{"Rate":1}}}}""", "JsonRpcRouter:Security:Roles:r:Quota:Rate")]
    [InlineData("""{"Identities":{"web":{"Quota":{"Burst":"lots"}}}}""", "JsonRpcRouter:Security:Identities:web:Quota:Burst")]
    [InlineData("""{"Identities":{"web":{"Call":"x"}}}""", "JsonRpcRouter:Security:Identities:web:Call")]
    public void Read_UnknownKeyOrBadValue_ErrorNamesItsPath(string securityJson, string path)
    {
        var error = Assert.Throws<InvalidOperationException>(() => ReadSecurity($$$"""{"JsonRpcRouter":{"Security":{{{securityJson}}}}}"""));
        Assert.Contains("'" + path, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("billing.ch*", "Security:Identities:web:Call:Allow:0")]
    [InlineData("billing.>.x", "Security:Identities:web:Call:Allow:0")]
    [InlineData("", "Security:Identities:web:Call:Allow:0")]
    public void Create_InvalidPattern_ErrorNamesIt(string pattern, string path)
    {
        var security = new JsonRpcSecurityOptions();
        security.Tokens.Add(Token("web", "web-token"));
        security.Identities["web"] = new JsonRpcIdentityRules { Call = Allow(pattern) };

        var error = Assert.Throws<InvalidOperationException>(
            () => new JsonRpcRouter(Microsoft.Extensions.Options.Options.Create(new JsonRpcRouterOptions { Security = security })));

        Assert.Contains(path, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Create_RulesWithoutAnyWayToAuthenticate_IsAnError()
    {
        var security = new JsonRpcSecurityOptions();
        security.Identities["web"] = new JsonRpcIdentityRules { Call = Allow("x") };
        var error = Assert.Throws<InvalidOperationException>(
            () => new JsonRpcRouter(Microsoft.Extensions.Options.Options.Create(new JsonRpcRouterOptions { Security = security })));
        Assert.Contains("nothing authenticates", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task EmptyAllowList_FromJson_AllowsNothingWhileNoListAllowsEverything()
    {
        var security = ReadSecurity("""
            {"JsonRpcRouter":{"Security":{
              "Tokens":[{"Identity":"none","Token":"none-token"},{"Identity":"all","Token":"all-token"},{"Identity":"svc","Token":"svc-token"}],
              "Identities":{"none":{"Call":[],"Provide":{"Allow":[]}},"all":{"Provide":{"Deny":["x.>"]}}}
            }}}
            """);
        await using var server = await StartAsync(security, output);
        await using var svc = await server.ConnectAsAsync("svc-token", "svc", "svc");
        await svc.ProvideAsync("svc.echo");
        await using var none = await server.ConnectAsAsync("none-token", "none", "none");
        await using var all = await server.ConnectAsAsync("all-token", "all", "all");

        IsDenied(await none.CallAsync("svc.echo", "[]"), "call", "method", "svc.echo", "none");
        IsDenied(await none.CallAsync("register_method", """{"method":"none.m"}"""), "provide", "method", "none.m", "none");
        Assert.Empty((await none.CallAsync("list_methods")).GetProperty("result").EnumerateArray());

        Answer.IsResult(await all.CallAsync("register_method", """{"method":"all.m"}"""), "true");
        IsDenied(await all.CallAsync("register_method", """{"method":"x.y"}"""), "provide", "method", "x.y", "all");
        await all.SendAsync(LineClient.Request(1, "svc.echo", "[]"));
        await svc.ServeOneAsync("1");
        Answer.IsResult(await all.ReadAsync(), "1");
    }

    [Fact]
    public async Task UpdateSecurity_IdentityNarrowed_EnforcedOnNextCallAndRegistrationsRemoved()
    {
        var capture = new CapturingLoggerProvider();
        await using var server = await StartAsync(Teams(), output, capture);
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.echo");
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
        await alpha.ProvideAsync("alpha.keep");
        await alpha.ProvideAsync("alpha.drop");
        await alpha.SubscribeAsync("beta.events.tick");
        await using var ops = await server.ConnectAsAsync("ops-token", "ops", "ops.1");
        Assert.Equal(["alpha.drop", "alpha.keep", "beta.echo"], MethodNames((await ops.CallAsync("list_methods")).GetProperty("result")));

        var narrowed = Teams();
        narrowed.Identities["alpha"] = new JsonRpcIdentityRules
        {
            Provide = Allow("alpha.keep"), Call = Allow("alpha.>"), Subscribe = Allow(), ClientNames = Allow("alpha.*"),
        };
        server.Router.UpdateSecurity(narrowed);

        // Its registrations no longer allowed are gone at once; the allowed one stays.
        Assert.Equal(["alpha.keep", "beta.echo"], MethodNames((await ops.CallAsync("list_methods")).GetProperty("result")));
        await beta.SendAsync(LineClient.Notification("beta.events.tick", "[1]"));
        Assert.Equal(0, (await ops.StatsAsync()).GetProperty("subscriptions").GetInt32());

        // And its next call is held to the new rules.
        IsDenied(await alpha.CallAsync("beta.echo", "[]"), "call", "method", "beta.echo", "alpha");
        IsDenied(await alpha.CallAsync("register_method", """{"method":"alpha.drop"}"""), "provide", "method", "alpha.drop", "alpha");
        IsDenied(await alpha.CallAsync("subscribe", """{"event":"beta.events.tick"}"""), "subscribe", "event", "beta.events.tick", "alpha");
        await beta.SendAsync(LineClient.Request(3, "alpha.keep", "[]"));
        Assert.Equal("alpha.keep", (await alpha.ServeOneAsync("3")).GetProperty("method").GetString());
        Answer.IsResult(await beta.ReadAsync(), "3");

        Assert.Contains(capture.Messages, m => m.Contains("may no longer provide alpha.drop", StringComparison.Ordinal));
        Assert.Contains(capture.Messages, m => m.Contains("may no longer subscribe to beta.events.tick", StringComparison.Ordinal));
        Assert.Contains(capture.Messages, m => m.StartsWith("Security configuration reloaded", StringComparison.Ordinal) && m.Contains("2 registrations", StringComparison.Ordinal));
    }

    [Fact]
    public async Task UpdateSecurity_TokenRemoved_ConnectionBecomesUnauthenticated()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var beta = await server.ConnectAsAsync("beta-token", "beta", "beta.1");
        await beta.ProvideAsync("beta.echo");
        await using var ops = await server.ConnectAsAsync("ops-token", "ops", "ops.1");

        var without = Teams();
        without.Tokens.RemoveAt(1);
        server.Router.UpdateSecurity(without);

        IsRefusal(await beta.CallAsync("list_methods"), RouterErrorCodes.NotAuthenticated, "not_authenticated", "method", "list_methods", identity: null);
        IsRefusal(await beta.CallAsync("register_method", """{"method":"beta.echo"}"""), RouterErrorCodes.NotAuthenticated, "not_authenticated",
            "method", "beta.echo", identity: null);
        Answer.IsError(await ops.CallAsync("beta.echo", "[]"), JsonRpc.Protocol.JsonRpcErrorCodes.MethodNotFound);

        // The old token no longer authenticates anyone.
        await using var again = await server.ConnectAsync();
        Answer.IsError(await again.CallAsync("authenticate", """{"token":"beta-token"}"""), RouterErrorCodes.AccessDenied);
    }

    [Fact]
    public async Task UpdateSecurity_InvalidConfiguration_ThrowsAndThePolicyInForceStays()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");

        var broken = Teams();
        broken.Identities["alpha"] = new JsonRpcIdentityRules { Call = Allow("beta.*x") };
        var error = Assert.Throws<InvalidOperationException>(() => server.Router.UpdateSecurity(broken));
        Assert.Contains("Security:Identities:alpha:Call:Allow:0", error.Message, StringComparison.Ordinal);

        IsDenied(await alpha.CallAsync("register_method", """{"method":"beta.x"}"""), "provide", "method", "beta.x", "alpha");
        Answer.IsResult(await alpha.CallAsync("register_method", """{"method":"alpha.x"}"""), "true");
    }

    [Fact]
    public async Task UpdateSecurity_ToNull_ChecksNothingAgain()
    {
        await using var server = await StartAsync(Teams(), output);
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
        server.Router.UpdateSecurity(null);

        Answer.IsResult(await alpha.CallAsync("register_method", """{"method":"beta.x"}"""), "true");
        await using var stranger = await server.ConnectRegisteredAsync("anyone");
        Assert.False((await stranger.StatsAsync()).TryGetProperty("refusals", out _));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)] // as deployment tools and Kubernetes do: a new file moved over the old one
    public async Task SecurityFile_ChangedOnDisk_ReloadedNarrowingEnforcedAndBadFileKept(bool replaceByRename)
    {
        var directory = Path.Combine(Path.GetTempPath(), $"security-{Guid.NewGuid():N}");
        Directory.CreateDirectory(directory);
        var file = Path.Combine(directory, "security.json");
        const string Secret = "s3cret-alpha-7f1c";
        string Policy(string alphaProvide) => $$"""
            {
              "Tokens": [ { "Identity": "alpha", "Token": "{{Secret}}" }, { "Identity": "ops", "Token": "ops-secret-99" } ],
              "Identities": { "alpha": { "Provide": {{alphaProvide}} }, "ops": { "Monitor": true } }
            }
            """;
        await File.WriteAllTextAsync(file, Policy("""["alpha.>"]"""));
        async Task WriteAsync(string text)
        {
            if (!replaceByRename)
            {
                await File.WriteAllTextAsync(file, text);
                return;
            }

            var temporary = Path.Combine(directory, $"next-{Guid.NewGuid():N}.tmp");
            await File.WriteAllTextAsync(temporary, text);
            File.Move(temporary, file, overwrite: true);
        }

        var capture = new CapturingLoggerProvider();
        try
        {
            // As the standalone router is configured: the file is named in the configuration, not given in code.
            await using var server = await RouterServer.StartAsync(output: output, build: b =>
            {
                b.Configuration.AddInMemoryCollection(new Dictionary<string, string?> { ["JsonRpcRouter:SecurityFile"] = file });
                b.Logging.AddProvider(capture);
            });
            await using var alpha = await server.ConnectAsAsync(Secret, "alpha", "alpha.1");
            await alpha.ProvideAsync("alpha.keep");
            await alpha.ProvideAsync("alpha.drop");
            await using var ops = await server.ConnectAsAsync("ops-secret-99", "ops", "ops.1");

            await WriteAsync(Policy("""["alpha.keep"]"""));
            await Eventually.TrueAsync(async () => MethodNames((await ops.CallAsync("list_methods")).GetProperty("result")) is ["alpha.keep"],
                "the narrowed file is in force");
            IsDenied(await alpha.CallAsync("register_method", """{"method":"alpha.drop"}"""), "provide", "method", "alpha.drop", "alpha");

            // A file that cannot work is logged and the policy in force stays.
            await WriteAsync(Policy("""["alpha.*x"]"""));
            await Eventually.TrueAsync(() => capture.Messages.Any(m => m.StartsWith("Security configuration not reloaded", StringComparison.Ordinal)),
                "the bad file is refused");
            IsDenied(await alpha.CallAsync("register_method", """{"method":"alpha.drop"}"""), "provide", "method", "alpha.drop", "alpha");
            Answer.IsResult(await alpha.CallAsync("register_method", """{"method":"alpha.keep"}"""), "true");

            Assert.DoesNotContain(capture.Messages, m => m.Contains(Secret, StringComparison.Ordinal) || m.Contains("ops-secret-99", StringComparison.Ordinal));
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    [Fact]
    public async Task SecurityFile_TruncatedOnDisk_KeepsThePolicyInForce()
    {
        var directory = Path.Combine(Path.GetTempPath(), $"security-{Guid.NewGuid():N}");
        Directory.CreateDirectory(directory);
        var file = Path.Combine(directory, "security.json");
        await File.WriteAllTextAsync(file, """{"Tokens":[{"Identity":"alpha","Token":"alpha-token"}],"Identities":{"alpha":{"Provide":["alpha.>"]}}}""");
        var capture = new CapturingLoggerProvider();
        try
        {
            await using var server = await RouterServer.StartAsync(output: output, build: b =>
            {
                b.Configuration.AddInMemoryCollection(new Dictionary<string, string?> { ["JsonRpcRouter:SecurityFile"] = file });
                b.Logging.AddProvider(capture);
            });

            // An editor or a deployment truncates the file before writing it again: for a moment it is empty.
            await File.WriteAllTextAsync(file, "");
            await Eventually.TrueAsync(() => capture.Messages.Any(m => m.StartsWith("Security configuration", StringComparison.Ordinal)),
                "the change is seen");
            Assert.Contains(capture.Messages, m => m.StartsWith("Security configuration not reloaded", StringComparison.Ordinal));

            await using var stranger = await server.ConnectAsync();
            IsRefusal(await stranger.CallAsync("register_client", """{"name":"x"}"""), RouterErrorCodes.NotAuthenticated, "not_authenticated",
                "method", "x", identity: null);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    [Fact]
    public async Task StandaloneRouter_SecurityFileOption_EnforcedAndReloadedWhenTheFileChanges()
    {
        var bound = TimeSpan.FromSeconds(45); // a cold process on a loaded machine; only a failure waits this long
        var directory = Path.Combine(Path.GetTempPath(), $"security-{Guid.NewGuid():N}");
        Directory.CreateDirectory(directory);
        var file = Path.Combine(directory, "security.json");
        static string Policy(string alphaProvide) => $$"""
            {"Tokens":[{"Identity":"alpha","Token":"alpha-process-secret"},{"Identity":"ops","Token":"ops-process-secret"}],
             "Identities":{"alpha":{"Provide":{{alphaProvide}} },"ops":{"Monitor":true} } }
            """;
        await File.WriteAllTextAsync(file, Policy("""["alpha.>"]"""));
        try
        {
            await using var router = await RouterProcess.StartListeningAsync(["--security_file", file, "--shutdown_timeout_ms", "200"], bound);
            try
            {
                await using var stranger = await LineClient.ConnectAsync(router.Port);
                IsRefusal(await stranger.CallAsync("register_client", """{"name":"x"}"""), RouterErrorCodes.NotAuthenticated, "not_authenticated",
                    "method", "x", identity: null);

                await using var alpha = await LineClient.ConnectAsync(router.Port);
                Answer.IsResult(await alpha.CallAsync("register_client", """{"name":"alpha.1","token":"alpha-process-secret"}"""), "true");
                await alpha.ProvideAsync("alpha.keep");
                await alpha.ProvideAsync("alpha.drop");
                await using var ops = await LineClient.ConnectAsync(router.Port);
                Answer.IsResult(await ops.CallAsync("authenticate", """{"token":"ops-process-secret"}"""), """{"identity":"ops","roles":[]}""");

                await File.WriteAllTextAsync(file, Policy("""["alpha.keep"]"""));
                await Eventually.TrueAsync(async () => MethodNames((await ops.CallAsync("list_methods")).GetProperty("result")) is ["alpha.keep"],
                    "the router process reloaded the file", bound);
                IsDenied(await alpha.CallAsync("register_method", """{"method":"alpha.drop"}"""), "provide", "method", "alpha.drop", "alpha");

                router.Interrupt();
                await router.WaitForExitAsync(bound);
                Assert.DoesNotContain("process-secret", router.Log, StringComparison.Ordinal);
                Assert.Contains("Refused (provide): identity alpha", router.Log, StringComparison.Ordinal);
            }
            finally
            {
                output.WriteLine(router.Log);
            }
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    [Fact]
    public async Task AppSettings_SecuritySectionChanged_ReloadedWhileRunning()
    {
        var directory = Path.Combine(Path.GetTempPath(), $"appsettings-{Guid.NewGuid():N}");
        Directory.CreateDirectory(directory);
        var file = Path.Combine(directory, "appsettings.json");
        static string Settings(string alphaProvide, int port) => $$$"""
            {"JsonRpcRouter":{"keepalive_timeout_ms":{{{port}}},"Security":{
              "Tokens":[{"Identity":"alpha","Token":"alpha-token"},{"Identity":"ops","Token":"ops-token"}],
              "Identities":{"alpha":{"Provide":{{{alphaProvide}}}},"ops":{"Monitor":true}}
            } } }
            """;
        await File.WriteAllTextAsync(file, Settings("""["alpha.>"]""", 60000));
        var capture = new CapturingLoggerProvider();
        try
        {
            await using var server = await RouterServer.StartAsync(output: output, build: b =>
            {
                b.Configuration.AddJsonFile(file, optional: false, reloadOnChange: true);
                b.Logging.AddProvider(capture);
            });
            await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");
            await alpha.ProvideAsync("alpha.keep");
            await alpha.ProvideAsync("alpha.drop");
            await using var ops = await server.ConnectAsAsync("ops-token", "ops", "ops.1");

            // A change elsewhere in the router's settings reloads no security.
            await File.WriteAllTextAsync(file, Settings("""["alpha.>"]""", 61000));
            await File.WriteAllTextAsync(file, Settings("""["alpha.keep"]""", 61000));
            await Eventually.TrueAsync(async () => MethodNames((await ops.CallAsync("list_methods")).GetProperty("result")) is ["alpha.keep"],
                "the narrowed settings are in force");
            IsDenied(await alpha.CallAsync("register_method", """{"method":"alpha.drop"}"""), "provide", "method", "alpha.drop", "alpha");
            Assert.DoesNotContain(capture.Messages, m => m.Contains("alpha-token", StringComparison.Ordinal));
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    [Fact]
    public async Task Audit_Refusal_LogsIdentityConnectionNameAndRule()
    {
        var capture = new CapturingLoggerProvider();
        await using var server = await StartAsync(Teams(), output, capture);
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");

        IsDenied(await alpha.CallAsync("beta.secret", "[]"), "call", "method", "beta.secret", "alpha");
        IsDenied(await alpha.CallAsync("register_method", """{"method":"gamma.x"}"""), "provide", "method", "gamma.x", "alpha");

        var lines = RefusalLines(capture);
        Assert.Equal(2, lines.Length);
        Assert.Matches(@"^Refused \(call\): identity alpha, connection \S+, beta\.secret: call: denied by 'beta\.secret'\.$", lines[0]);
        Assert.Matches(@"^Refused \(provide\): identity alpha, connection \S+, gamma\.x: provide: no provide allow rule matches\.$", lines[1]);
        Assert.DoesNotContain(capture.Messages, m => m.Contains("alpha-token", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Audit_FloodOfRefusals_LogLinesBoundedAndSuppressedCounted()
    {
        const int PerSecond = 5;
        const int Flood = 1000;
        var security = Teams();
        security.AuditLogsPerSecond = PerSecond;
        var capture = new CapturingLoggerProvider();
        await using var server = await StartAsync(security, output, capture);
        await using var alpha = await server.ConnectAsAsync("alpha-token", "alpha", "alpha.1");

        var elapsed = Stopwatch.StartNew();
        await alpha.SendAsync(string.Join("\n", Enumerable.Range(1, Flood).Select(i => LineClient.Request(i, "beta.secret", "[]"))));
        for (var i = 0; i < Flood; i++)
        {
            Answer.IsError(await alpha.ReadAsync(), RouterErrorCodes.PermissionDenied);
        }

        elapsed.Stop();
        var lines = RefusalLines(capture);
        var seconds = (int)Math.Ceiling(elapsed.Elapsed.TotalSeconds) + 1;
        Assert.True(lines.Length <= PerSecond * seconds, $"{lines.Length} lines for {Flood} refusals in {elapsed.Elapsed}");
        Assert.True(lines.Length >= 1);
        Assert.Equal(Flood, Refusals(await alpha.StatsAsync(), "call"));

        // The first line written in a later second says how many were not logged: every refusal is then accounted for,
        // logged or counted as not logged, and none twice.
        var extra = 0;
        await Eventually.TrueAsync(async () =>
        {
            extra++;
            Answer.IsError(await alpha.CallAsync("beta.secret", "[]"), RouterErrorCodes.PermissionDenied);
            var all = RefusalLines(capture);
            return all.Length + all.Sum(Suppressed) >= Flood;
        }, "the refusals not logged are counted in a later line", TimeSpan.FromSeconds(30));

        var final = RefusalLines(capture);
        var reported = final.Sum(Suppressed);
        Assert.True(reported > 0);
        Assert.True(reported + final.Length <= Flood + extra, $"{reported} + {final.Length} > {Flood + extra}");
    }

    // A line says how many refusals before it were not logged only when some were.
    private static long Suppressed(string line)
        => SuppressedPattern().Match(line) is { Success: true } match ? long.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture) : 0;

    [GeneratedRegex(@"\. (\d+) more refusals were not logged, over the audit log rate\.$")]
    private static partial Regex SuppressedPattern();

    [Fact]
    public async Task NoSecurity_EverythingAsBefore()
    {
        await using var server = await StartAsync(null, output);
        await using var provider = await server.ConnectRegisteredAsync("anything", "any.method");
        await using var caller = await server.ConnectAsync();

        await caller.SendAsync(LineClient.Request(1, "any.method", "[]"));
        await provider.ServeOneAsync("1");
        Answer.IsResult(await caller.ReadAsync(), "1");
        Answer.IsResult(await caller.CallAsync("authenticate", """{"token":"whatever"}"""), """{"identity":"(anonymous)","roles":[]}""");
        Answer.IsResult(await caller.CallAsync("register_client", """{"name":"caller","token":"whatever"}"""), "true");
        var stats = await caller.StatsAsync();
        Assert.False(stats.TryGetProperty("refusals", out _));
        Assert.False(stats.TryGetProperty("identities", out _));
    }

    [Fact]
    public async Task AccessTokenOnly_RegisterClientWithoutOrWithWrongToken_RefusedAndClosedAsBefore()
    {
        await using var server = await StartAsync(null, output, configure: o => o.AccessToken = "the-access-token");

        await using var without = await server.ConnectAsync();
        Answer.IsError(await without.CallAsync("register_client", """{"name":"a"}"""), RouterErrorCodes.AccessDenied);
        await without.AssertClosedAsync();

        await using var wrong = await server.ConnectAsync();
        Answer.IsError(await wrong.CallAsync("register_client", """{"name":"a","token":"nope"}"""), RouterErrorCodes.AccessDenied);
        await wrong.AssertClosedAsync();

        await using var right = await server.ConnectAsync();
        Answer.IsResult(await right.CallAsync("register_client", """{"name":"a","token":"the-access-token"}"""), "true");
        Answer.IsResult(await right.CallAsync("register_method", """{"method":"anything"}"""), "true");
        Assert.False((await right.StatsAsync()).TryGetProperty("identities", out _));

        await using var authenticated = await server.ConnectAsync();
        Answer.IsResult(await authenticated.CallAsync("authenticate", """{"token":"the-access-token"}"""), """{"identity":"access_token","roles":[]}""");
    }

    [Fact]
    public async Task AccessTokenWithPolicy_IsTheAccessTokenIdentity()
    {
        var security = new JsonRpcSecurityOptions();
        security.Identities[JsonRpcSecurityOptionsNames.AccessToken] = new JsonRpcIdentityRules { Provide = Allow("legacy.>") };
        await using var server = await StartAsync(security, output, configure: o => o.AccessToken = "the-access-token");
        await using var client = await server.ConnectAsync();

        Answer.IsResult(await client.CallAsync("register_client", """{"name":"old","token":"the-access-token"}"""), "true");
        Answer.IsResult(await client.CallAsync("register_method", """{"method":"legacy.m"}"""), "true");
        IsDenied(await client.CallAsync("register_method", """{"method":"new.m"}"""), "provide", "method", "new.m", "access_token");

        await using var stranger = await server.ConnectAsync();
        IsRefusal(await stranger.CallAsync("register_client", """{"name":"x"}"""), RouterErrorCodes.NotAuthenticated, "not_authenticated", "method", "x", null);
    }

    private static class JsonRpcSecurityOptionsNames
    {
        public const string AccessToken = "access_token";
    }
}
