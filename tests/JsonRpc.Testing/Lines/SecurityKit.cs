using JsonRpc.Server;
using System.Text.Json;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Testing.Lines;

/// <summary>Routers with a security policy, and assertions on the router's refusals.</summary>
public static class SecurityKit
{
    public static JsonRpcPermission Allow(params string[] patterns) => new() { Allow = patterns };

    public static JsonRpcPermission Deny(params string[] patterns) => new() { Deny = patterns };

    public static JsonRpcPermission AllowDeny(string[] allow, string[] deny) => new() { Allow = allow, Deny = deny };

    public static JsonRpcTokenIdentity Token(string identity, string token, params string[] roles)
    {
        var entry = new JsonRpcTokenIdentity { Identity = identity, Token = token };
        foreach (var role in roles)
        {
            entry.Roles.Add(role);
        }

        return entry;
    }

    /// <summary>
    /// The policy of the permission matrix: "alpha" and "beta" are two teams, each providing its own methods
    /// (<c>alpha.&gt;</c>, <c>beta.&gt;</c>) and publishing its own events; "ops" is a monitor that may do anything.
    /// </summary>
    public static JsonRpcSecurityOptions Teams()
    {
        var security = new JsonRpcSecurityOptions();
        security.Tokens.Add(Token("alpha", "alpha-token"));
        security.Tokens.Add(Token("beta", "beta-token"));
        security.Tokens.Add(Token("ops", "ops-token"));
        security.Identities["alpha"] = new JsonRpcIdentityRules
        {
            Provide = Allow("alpha.>"),
            Call = AllowDeny(["alpha.>", "beta.*"], ["beta.secret"]),
            Publish = Allow("alpha.events.>"),
            Subscribe = Allow("beta.events.*"),
            ClientNames = Allow("alpha.*"),
        };
        security.Identities["beta"] = new JsonRpcIdentityRules
        {
            Provide = Allow("beta.>"),
            Call = Allow("alpha.>"),
            Publish = Allow("beta.events.>"),
            Subscribe = Allow("alpha.events.>"),
            ClientNames = Allow("beta.*"),
        };
        security.Identities["ops"] = new JsonRpcIdentityRules { Monitor = true };
        return security;
    }

    /// <summary>A router with <paramref name="security"/>, logging to the test output and to <paramref name="capture"/>.</summary>
    public static Task<RouterHost> StartAsync(JsonRpcSecurityOptions? security, ITestOutputHelper output, CapturingLoggerProvider? capture = null,
        Action<JsonRpcRouterOptions>? configure = null)
        => RouterServer.StartAsync(
            o =>
            {
                o.Security = security;
                configure?.Invoke(o);
            },
            output,
            build: capture is null ? null : b => b.Logging.AddProvider(capture));

    /// <summary>Connects and authenticates with <paramref name="token"/>; asserts the identity the router answers.</summary>
    public static async Task<LineClient> ConnectAsAsync(this RouterHost server, string token, string identity, string? name = null)
    {
        var client = await server.ConnectAsync();
        var answer = await client.CallAsync("authenticate", $$"""{"token":"{{token}}"}""");
        Assert.True(answer.TryGetProperty("result", out var result), answer.ToString());
        Assert.Equal(identity, result.GetProperty("identity").GetString());
        if (name is not null)
        {
            await client.RegisterAsync(name);
        }

        return client;
    }

    /// <summary>
    /// Asserts a refusal: the code, and <c>data</c> with exactly the permission, the name under <paramref name="key"/>
    /// (method, event or name), the identity, and a detail.
    /// </summary>
    public static JsonElement IsRefusal(JsonElement answer, int code, string permission, string? key, string? value, string? identity)
    {
        Assert.True(answer.TryGetProperty("error", out var error), $"Expected error {code}, got {answer}");
        Assert.Equal(code, error.GetProperty("code").GetInt32());
        var data = error.GetProperty("data");
        Assert.Equal(JsonValueKind.Object, data.ValueKind);
        Assert.Equal(permission, data.GetProperty("permission").GetString());
        if (key is not null)
        {
            Assert.Equal(value, data.GetProperty(key).GetString());
        }

        if (identity is null)
        {
            Assert.False(data.TryGetProperty("identity", out _), answer.ToString());
        }
        else
        {
            Assert.Equal(identity, data.GetProperty("identity").GetString());
        }

        Assert.False(string.IsNullOrEmpty(data.GetProperty("detail").GetString()));
        return data;
    }

    public static JsonElement IsDenied(JsonElement answer, string permission, string key, string value, string identity)
        => IsRefusal(answer, RouterErrorCodes.PermissionDenied, permission, key, value, identity);

    /// <summary>The answer in a batch reply with the given id.</summary>
    public static JsonElement ById(JsonElement batch, int id)
    {
        Assert.Equal(JsonValueKind.Array, batch.ValueKind);
        foreach (var element in batch.EnumerateArray())
        {
            if (element.TryGetProperty("id", out var got) && got.ValueKind == JsonValueKind.Number && got.GetInt32() == id)
            {
                return element;
            }
        }

        Assert.Fail($"No answer with id {id} in {batch}");
        return default;
    }

    public static long Refusals(JsonElement stats, string reason) => stats.GetProperty("refusals").GetProperty(reason).GetInt64();

    public static JsonElement IdentityStats(JsonElement stats, string identity) => stats.GetProperty("identities").GetProperty(identity);

    public static string[] MethodNames(JsonElement list) => [.. list.EnumerateArray().Select(static m => m.GetProperty("method").GetString()!)];

    public static string[] ClientNames(JsonElement list) => [.. list.EnumerateArray().Select(static c => c.GetProperty("name").GetString()!)];

    /// <summary>The router's refusal lines (event 30) in the captured log.</summary>
    public static string[] RefusalLines(CapturingLoggerProvider capture) => [.. capture.Messages.Where(static m => m.StartsWith("Refused (", StringComparison.Ordinal))];
}
