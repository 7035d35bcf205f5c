using Microsoft.Extensions.Options;

namespace JsonRpc.Server;

/// <summary>Refuses settings that cannot work, with a message naming the setting.</summary>
internal sealed class JsonRpcRouterOptionsValidator : IValidateOptions<JsonRpcRouterOptions>
{
    public ValidateOptionsResult Validate(string? name, JsonRpcRouterOptions options)
    {
        List<string>? failures = null;
        void Fail(string message) => (failures ??= []).Add(message);
        static string D(string name) => JsonRpcRouterConfiguration.Describe(name);

        if (options.Port is < 0 or > 65535)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.Port))} must be 0..65535 (was {options.Port}).");
        }

        if (options.HttpPort is < 0 or > 65535)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.HttpPort))} must be 0..65535 (was {options.HttpPort}).");
        }
        else if (options.HttpPort is > 0 && options.HttpPort == options.Port)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.HttpPort))} must differ from {D(nameof(JsonRpcRouterOptions.Port))} (both are {options.Port}).");
        }

        if (string.IsNullOrWhiteSpace(options.Host))
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.Host))} must be an IP address, 'localhost' or '*'.");
        }

        if (options.KeepAliveTimeout < TimeSpan.Zero)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.KeepAliveTimeout))} must not be negative.");
        }

        if (options.RegistrationTimeout <= TimeSpan.Zero && options.RequireRegistration)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.RegistrationTimeout))} must be positive when {D(nameof(JsonRpcRouterOptions.RequireRegistration))} is on.");
        }

        if (options.CallTimeout < TimeSpan.Zero)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.CallTimeout))} must not be negative.");
        }

        if (options.ShutdownTimeout < TimeSpan.Zero)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.ShutdownTimeout))} must not be negative.");
        }

        if (options.MaxPenaltyDelay < TimeSpan.Zero || options.MaxPenaltyDelay > TimeSpan.FromMinutes(1))
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.MaxPenaltyDelay))} must be between 0 and 1 minute.");
        }

        if (options.MaxMessageSize < 64)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.MaxMessageSize))} must be at least 64 bytes (was {options.MaxMessageSize}).");
        }

        if (options.MaxConnections < 1)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.MaxConnections))} must be at least 1.");
        }

        if (options.MaxPendingCallsPerConnection < 1)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.MaxPendingCallsPerConnection))} must be at least 1.");
        }

        if (options.MaxRoutesPerConnection < 1)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.MaxRoutesPerConnection))} must be at least 1.");
        }

        if (options.MaxDepth is < 2 or > 4096)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.MaxDepth))} must be 2..4096 (was {options.MaxDepth}).");
        }

        if (options.MaxOutboundBufferSize < options.MaxMessageSize)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.MaxOutboundBufferSize))} must be at least {D(nameof(JsonRpcRouterOptions.MaxMessageSize))}.");
        }

        if (options.MaxMemory is { } memory && memory < options.MaxOutboundBufferSize)
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.MaxMemory))} must be at least {D(nameof(JsonRpcRouterOptions.MaxOutboundBufferSize))}.");
        }

        if (options.AccessToken is { Length: 0 })
        {
            Fail($"{D(nameof(JsonRpcRouterOptions.AccessToken))} must not be empty; leave it unset for no token.");
        }

        return failures is null ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
