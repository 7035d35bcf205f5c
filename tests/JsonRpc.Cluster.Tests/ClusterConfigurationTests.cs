using JsonRpc.Server;
using JsonRpc.Server.Cluster;
using Microsoft.Extensions.Configuration;

namespace JsonRpc.Cluster.Tests;

public sealed class ClusterConfigurationTests
{
    [Theory]
    [InlineData("nats://127.0.0.1:4222", "nats://127.0.0.1:4222")]
    [InlineData("nats://router:pa55@10.0.0.1:4222", "nats://***@10.0.0.1:4222")]
    [InlineData("tls://token@a:4222, nats://b:4222,u:p@c:4222", "tls://***@a:4222,nats://b:4222,***@c:4222")]
    public void WithoutPasswords_HidesUserInfoOfEveryUrl(string urls, string shown)
        => Assert.Equal(shown, JsonRpcCluster.WithoutPasswords(urls));

    [Fact]
    public void Bind_SnakeCaseCommandLine_SetsEveryOption()
    {
        var configuration = new ConfigurationBuilder()
            .AddCommandLine(
                ["--nats_url", "nats://a:4222,nats://b:4222", "--node_name", "web1", "--cluster_heartbeat_ms", "250",
                 "--cluster_node_timeout_ms", "1000", "--nats_user", "u", "--nats_password", "p", "--nats_tls", "true"],
                JsonRpcClusterConfiguration.CommandLineSwitchMappings.ToDictionary())
            .Build();
        var options = new JsonRpcClusterOptions();
        JsonRpcClusterConfiguration.Bind(configuration.GetSection(JsonRpcRouterOptions.SectionName), options);

        Assert.Equal("nats://a:4222,nats://b:4222", options.NatsUrl);
        Assert.Equal("web1", options.NodeName);
        Assert.Equal(TimeSpan.FromMilliseconds(250), options.HeartbeatInterval);
        Assert.Equal(TimeSpan.FromSeconds(1), options.NodeTimeout);
        Assert.Equal("u", options.NatsUser);
        Assert.Equal("p", options.NatsPassword);
        Assert.True(options.NatsTls);
        Assert.True(options.IsEnabled);
        Assert.Null(JsonRpcClusterConfiguration.Validate(options));
    }

    [Fact]
    public void Bind_DotNetNames_SetOptions()
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?>
            {
                ["JsonRpcRouter:NatsUrl"] = "nats://127.0.0.1:4222",
                ["JsonRpcRouter:NodeTimeout"] = "00:00:03",
                ["JsonRpcRouter:SubjectPrefix"] = "team-a",
            })
            .Build();
        var options = new JsonRpcClusterOptions();
        JsonRpcClusterConfiguration.Bind(configuration.GetSection(JsonRpcRouterOptions.SectionName), options);

        Assert.Equal("nats://127.0.0.1:4222", options.NatsUrl);
        Assert.Equal(TimeSpan.FromSeconds(3), options.NodeTimeout);
        Assert.Equal("team-a", options.SubjectPrefix);
    }

    [Theory]
    [InlineData("has.dot")]
    [InlineData("wild*")]
    [InlineData("gt>")]
    [InlineData("has space")]
    [InlineData("")]
    public void Validate_NodeNameThatIsNotOneSubjectToken_Refused(string name)
        => Assert.Contains("NodeName", JsonRpcClusterConfiguration.Validate(new JsonRpcClusterOptions { NatsUrl = "nats://x", NodeName = name }));

    [Fact]
    public void Validate_NodeTimeoutUnderTwoHeartbeats_Refused()
        => Assert.Contains("NodeTimeout", JsonRpcClusterConfiguration.Validate(new JsonRpcClusterOptions
        {
            NatsUrl = "nats://x",
            HeartbeatInterval = TimeSpan.FromSeconds(1),
            NodeTimeout = TimeSpan.FromSeconds(1),
        }));

    [Fact]
    public void Constructor_WithoutNatsUrl_Throws()
    {
        using var router = new JsonRpcRouter(Microsoft.Extensions.Options.Options.Create(new JsonRpcRouterOptions()));
        Assert.Throws<ArgumentException>(() => new JsonRpcCluster(router, new JsonRpcClusterOptions()));
    }
}
