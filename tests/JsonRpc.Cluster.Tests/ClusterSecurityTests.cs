using JsonRpc.Server.Cluster;
using JsonRpc.Testing;
using Microsoft.Extensions.Logging;
using NATS.NKeys;

namespace JsonRpc.Cluster.Tests;

/// <summary>
/// The cluster's NATS credentials and TLS options against a real nats-server that requires them: nodes with the right
/// ones join and call across; a node with wrong ones stays out, serves its own clients and logs why.
/// </summary>
public sealed class ClusterSecurityTests(ITestOutputHelper output)
{
    private static readonly TimeSpan RefusalTimeout = TimeSpan.FromSeconds(15);

    [NatsFact]
    public async Task UserAndPassword_NodesJoinAndCallAcross_WrongPasswordStaysOutAndSaysWhy()
    {
        using var secrets = NatsSecrets.Create();
        var nats = secrets.Config("""authorization { user: "router", password: "pa55-w0rd" }""");
        await using var cluster = await ClusterNodes.StartAsync(2, output, cluster: o => (o.NatsUser, o.NatsPassword) = ("router", "pa55-w0rd"), natsArguments: nats);
        await CallAcrossAsync(cluster);

        await AssertStaysOutAsync(cluster, o => (o.NatsUser, o.NatsPassword) = ("router", "wrong"), "Authorization Violation", refusedAtStart: "Authorization Violation");
    }

    [NatsFact]
    public async Task Token_NodesJoinAndCallAcross_NoTokenStaysOut()
    {
        using var secrets = NatsSecrets.Create();
        var nats = secrets.Config("""authorization { token: "s3cret-t0ken" }""");
        await using var cluster = await ClusterNodes.StartAsync(2, output, cluster: o => o.NatsToken = "s3cret-t0ken", natsArguments: nats);
        await CallAcrossAsync(cluster);

        await AssertStaysOutAsync(cluster, _ => { }, "Authorization Violation", refusedAtStart: "Authorization Violation");
    }

    [NatsFact]
    public async Task NKeySeedFile_NodesJoinAndCallAcross_AnotherKeyStaysOut()
    {
        using var secrets = NatsSecrets.Create();
        using var allowed = KeyPair.CreatePair(PrefixByte.User);
        using var stranger = KeyPair.CreatePair(PrefixByte.User);
        var seedFile = Path.Combine(secrets.Folder, "router.nk");
        var strangerFile = Path.Combine(secrets.Folder, "stranger.nk");
        // Both forms of an NKey file: the seed alone (as `nk -gen user` writes it), and the seed with the public key.
        await File.WriteAllTextAsync(seedFile, allowed.GetSeed() + "\n");
        await File.WriteAllTextAsync(strangerFile, $"{stranger.GetSeed()}\n{stranger.GetPublicKey()}\n");
        var nats = secrets.Config($$"""authorization { users: [ { nkey: "{{allowed.GetPublicKey()}}" } ] }""");
        await using var cluster = await ClusterNodes.StartAsync(2, output, cluster: o => o.NatsNKeyFile = seedFile, natsArguments: nats);
        await CallAcrossAsync(cluster);

        await AssertStaysOutAsync(cluster, o => o.NatsNKeyFile = strangerFile, "Authorization Violation", refusedAtStart: "Authorization Violation");
    }

    [Fact]
    public void ReadNKeyFile_SeedAloneOrWithItsKey_NoSeedOrNoFileIsAClearError()
    {
        using var secrets = NatsSecrets.Create();
        using var pair = KeyPair.CreatePair(PrefixByte.User);
        var file = Path.Combine(secrets.Folder, "public-only.nk");
        File.WriteAllText(file, pair.GetPublicKey() + "\n");

        var problem = Assert.Throws<InvalidOperationException>(() => JsonRpcCluster.ReadNKeyFile(file));
        Assert.Contains(file, problem.Message, StringComparison.Ordinal);
        Assert.Contains("no user seed", problem.Message, StringComparison.Ordinal);
        Assert.Throws<InvalidOperationException>(() => JsonRpcCluster.ReadNKeyFile(Path.Combine(secrets.Folder, "missing.nk")));
        Assert.Equal((pair.GetSeed(), pair.GetPublicKey()), JsonRpcCluster.ReadNKeyFile(WriteSeed(secrets, pair)));

        static string WriteSeed(NatsSecrets secrets, KeyPair pair)
        {
            var path = Path.Combine(secrets.Folder, "seed-only.nk");
            File.WriteAllText(path, pair.GetSeed() + "\n");
            return path;
        }
    }

    [NatsFact]
    public async Task CredsFile_OperatorMode_NodesJoinAndCallAcross_UserOfAnUnknownAccountStaysOut()
    {
        using var secrets = NatsSecrets.Create();
        var nats = secrets.OperatorMode(out var creds, out var strangerCreds);
        await using var cluster = await ClusterNodes.StartAsync(2, output, cluster: o => o.NatsCredsFile = creds, natsArguments: nats);
        await CallAcrossAsync(cluster);

        await AssertStaysOutAsync(cluster, o => o.NatsCredsFile = strangerCreds, "Authorization Violation", refusedAtStart: "Authorization Violation");
    }

    [NatsFact]
    public async Task Tls_TlsUrlAndCaFile_NodesJoinAndCallAcross_CaThatDidNotIssueTheServersCertificateStaysOut()
    {
        using var secrets = NatsSecrets.Create();
        var nats = secrets.Config(secrets.TlsBlock(verifyClients: false));
        await using var cluster = await ClusterNodes.StartAsync(2, output, cluster: o =>
        {
            o.NatsUrl = o.NatsUrl!.Replace("nats://", "tls://", StringComparison.Ordinal);
            o.NatsTlsCaFile = secrets.CaFile;
        }, natsArguments: nats);
        await CallAcrossAsync(cluster);

        // The server's certificate does not chain to the CA this node trusts: no connection, whatever NATS would say.
        await AssertStaysOutAsync(cluster, o =>
        {
            o.NatsUrl = o.NatsUrl!.Replace("nats://", "tls://", StringComparison.Ordinal);
            o.NatsTlsCaFile = secrets.OtherCaFile;
        }, expectedInLog: "could not reach NATS");
    }

    [NatsFact]
    public async Task MutualTls_ClientCertificate_NodesJoinAndCallAcross_NodeWithoutOneStaysOut()
    {
        using var secrets = NatsSecrets.Create();
        var nats = secrets.Config(secrets.TlsBlock(verifyClients: true));
        await using var cluster = await ClusterNodes.StartAsync(2, output, cluster: o =>
        {
            o.NatsTls = true;
            o.NatsTlsCaFile = secrets.CaFile;
            o.NatsTlsCertFile = secrets.ClientCertFile;
            o.NatsTlsKeyFile = secrets.ClientKeyFile;
        }, natsArguments: nats);
        await CallAcrossAsync(cluster);

        await AssertStaysOutAsync(cluster, o => (o.NatsTls, o.NatsTlsCaFile) = (true, secrets.CaFile), expectedInLog: "could not reach NATS");
    }

    [NatsFact]
    public async Task TwoRouterProcesses_UserPasswordOverTls_FromTheCommandLine()
    {
        using var secrets = NatsSecrets.Create();
        var nats = secrets.Config(secrets.TlsBlock(verifyClients: false) + "\n" + """authorization { user: "router", password: "pa55-w0rd" }""");
        await using var nodes = await TwoProcesses.StartAsync(output, nats,
            "--nats_user", "router", "--nats_password", "pa55-w0rd", "--nats_tls_ca_file", secrets.CaFile);

        await nodes.Caller.SendAsync(LineClient.Request("p1", "b.work", """{"n":1}"""));
        var request = await nodes.Provider.ServeOneAsync("""{"ok":true}""");
        Assert.Equal("""{"n":1}""", request.GetProperty("params").GetRawText());
        var answer = await nodes.Caller.ReadAsync();
        Assert.Equal("p1", answer.GetProperty("id").GetString());
        Assert.True(answer.GetProperty("result").GetProperty("ok").GetBoolean());
    }

    [NatsFact]
    public async Task RunningNode_NatsBackWithOtherCredentials_KeepsTryingAndRejoinsOnceTheyAreRightAgain()
    {
        using var secrets = NatsSecrets.Create();
        var config = Path.Combine(secrets.Folder, "auth.conf");
        static string Auth(string password) => $$"""authorization { user: "router", password: "{{password}}" }""";
        await File.WriteAllTextAsync(config, Auth("pa55-w0rd"));
        await using var cluster = await ClusterNodes.StartAsync(1, output, cluster: o => (o.NatsUser, o.NatsPassword) = ("router", "pa55-w0rd"), natsArguments: ["-c", config]);

        // At Debug: NATS.Net's repeats of one refusal are written once a minute at their own level and at Debug each time.
        var log = new CapturingLoggerProvider();
        using var loggerFactory = LoggerFactory.Create(b => b.SetMinimumLevel(LogLevel.Debug).AddProvider(log).AddProvider(new TestOutputLoggerProvider(output)));
        await using var host = await RouterHost.StartAsync();
        await using var node = new JsonRpcCluster(host.Router, new JsonRpcClusterOptions
        {
            NatsUrl = cluster.Nats.Url,
            NodeName = "rotating",
            NatsUser = "router",
            NatsPassword = "pa55-w0rd",
        }, loggerFactory);
        await node.StartAsync();
        await Eventually.TrueAsync(() => node.Nodes.Contains("n0"), "the node joins");

        // NATS comes back wanting another password: the node is refused, again and again (NATS.Net on its own would
        // stop at the second refusal and leave the node out until a restart)...
        cluster.Nats.Kill();
        await File.WriteAllTextAsync(config, Auth("rotated"));
        await cluster.Nats.RestartAsync();
        // (NATS.Net logs two lines for each refusal: at least three refusals.)
        await Eventually.TrueAsync(() => log.Messages.Count(m => m.Contains("authorization violation", StringComparison.OrdinalIgnoreCase)) >= 6,
            "the node is refused and keeps trying", TimeSpan.FromSeconds(30));
        Assert.False(node.IsConnected);

        // ...and once the server takes its credentials again, it is back in the cluster without a restart.
        cluster.Nats.Kill();
        await File.WriteAllTextAsync(config, Auth("pa55-w0rd"));
        await cluster.Nats.RestartAsync();
        await Eventually.TrueAsync(() => node.IsConnected && node.Nodes.Contains("n0") && cluster.Nodes[0].Cluster.Nodes.Contains("rotating"),
            "the node rejoins", TimeSpan.FromSeconds(30));
    }

    [NatsFact]
    public async Task RouterProcess_WrongPassword_ExitsWithOneLineThatNamesTheRefusal_AndNoPasswordShown()
    {
        using var secrets = NatsSecrets.Create();
        await using var nats = await NatsServer.StartAsync(0, secrets.Config("""authorization { user: "router", password: "pa55-w0rd" }"""));
        var url = $"nats://router:not-the-password@127.0.0.1:{nats.Port}";

        var result = await ChildProcess.RunAsync(RouterProcess.Dll, ["--port", "0", "--nats_url", url], timeout: TimeSpan.FromSeconds(60));

        Assert.Equal(1, result.ExitCode);
        var last = result.Stderr.TrimEnd().Split('\n')[^1];
        Assert.StartsWith("jsonrpc-router: Cluster node", last, StringComparison.Ordinal);
        Assert.Contains("Authorization Violation", last, StringComparison.Ordinal);
        Assert.Contains("nats://***@127.0.0.1:", last, StringComparison.Ordinal);
        Assert.DoesNotContain("not-the-password", result.Stdout + result.Stderr, StringComparison.Ordinal);
    }

    /// <summary>A provider on node 1, a caller on node 0: one call across, params and id untouched.</summary>
    private static async Task CallAcrossAsync(ClusterNodes cluster)
    {
        await using var provider = await cluster.ConnectRegisteredAsync(1, "provider", "secure.work");
        await cluster.KnowsMethodAsync(0, "secure.work");
        await using var caller = await cluster.ConnectRegisteredAsync(0, "caller");
        await caller.SendAsync(LineClient.Request("s1", "secure.work", """{"n":1}"""));
        var request = await provider.ServeOneAsync("\"done\"");
        Assert.Equal("""{"n":1}""", request.GetProperty("params").GetRawText());
        var answer = await caller.ReadAsync();
        Assert.Equal("s1", answer.GetProperty("id").GetString());
        Answer.IsResult(answer, "\"done\"");
    }

    /// <summary>
    /// A third node set up by <paramref name="configure"/> (its NATS URL is the cluster's to start with) does not get in: it serves its
    /// own clients, answers a call to a method only the cluster provides with Method not found at once, the cluster never
    /// sees it, and its log says why (<paramref name="expectedInLog"/>). With <paramref name="refusedAtStart"/>, starting
    /// it fails with an exception that says so.
    /// </summary>
    private async Task AssertStaysOutAsync(ClusterNodes cluster, Action<JsonRpcClusterOptions> configure, string expectedInLog, string? refusedAtStart = null)
    {
        await using var provider = await cluster.ConnectRegisteredAsync(1, "member", "members.only");
        await cluster.KnowsMethodAsync(0, "members.only");

        var log = new CapturingLoggerProvider();
        using var loggerFactory = LoggerFactory.Create(b => b.AddProvider(log).AddProvider(new TestOutputLoggerProvider(output)));
        await using var host = await RouterHost.StartAsync();
        var options = new JsonRpcClusterOptions { NatsUrl = cluster.Nats.Url, NodeName = "outsider", ConnectTimeout = TimeSpan.FromSeconds(1) };
        configure(options);
        await using var outsider = new JsonRpcCluster(host.Router, options, loggerFactory);
        if (refusedAtStart is not null)
        {
            // Refused credentials are a setting to correct: starting fails and says what NATS said.
            var refused = await Assert.ThrowsAsync<InvalidOperationException>(() => outsider.StartAsync());
            Assert.Contains("could not connect to NATS", refused.Message, StringComparison.Ordinal);
            Assert.Contains(refusedAtStart, refused.Message, StringComparison.OrdinalIgnoreCase);
        }
        else
        {
            await outsider.StartAsync();
        }

        Assert.False(outsider.IsConnected);

        await using var local = await LineClient.ConnectAsync(host.Port);
        await local.RegisterAsync("local");
        await local.ProvideAsync("local.work");
        await using var caller = await LineClient.ConnectAsync(host.Port);
        await caller.SendAsync(LineClient.Request(1, "local.work"));
        await local.ServeOneAsync("\"here\"");
        Answer.IsResult(await caller.ReadAsync(), "\"here\"");
        Answer.IsError(await caller.CallAsync("members.only"), -32601);

        await Eventually.TrueAsync(() => log.Messages.Any(m => m.Contains(expectedInLog, StringComparison.OrdinalIgnoreCase)),
            $"the outsider logs why it cannot connect ({expectedInLog})", RefusalTimeout);
        Assert.False(outsider.IsConnected);
        Assert.DoesNotContain("outsider", cluster.Nodes[0].Cluster.Nodes);
    }
}
