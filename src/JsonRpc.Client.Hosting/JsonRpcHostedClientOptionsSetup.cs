using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace JsonRpc.Client.Hosting;

/// <summary>Binds each hosted client's options from its configuration section, and checks them with errors that name the setting.</summary>
internal sealed class JsonRpcHostedClientOptionsSetup(IServiceProvider services)
    : IConfigureNamedOptions<JsonRpcHostedClientOptions>, IValidateOptions<JsonRpcHostedClientOptions>
{
    public void Configure(JsonRpcHostedClientOptions options) => Configure(Options.DefaultName, options);

    public void Configure(string? name, JsonRpcHostedClientOptions options)
    {
        if (name is { Length: > 0 } && services.GetService(typeof(IConfiguration)) is IConfiguration configuration)
        {
            JsonRpcHostedClientConfiguration.Bind(configuration.GetSection($"{JsonRpcHostedClientOptions.SectionPrefix}:{name}"), options);
        }
    }

    public ValidateOptionsResult Validate(string? name, JsonRpcHostedClientOptions options)
    {
        var where = $"JSON-RPC client '{name}' ({JsonRpcHostedClientOptions.SectionPrefix}:{name})";
        var errors = new List<string>();
        if (options.Uri is { } uri)
        {
            if (!uri.IsAbsoluteUri || uri.Scheme is not ("tcp" or "ws" or "wss"))
            {
                errors.Add($"{where}: Uri '{uri}' is not a tcp://host:port, ws:// or wss:// address.");
            }
            else if (uri.Scheme == "tcp" && uri.Port <= 0)
            {
                errors.Add($"{where}: Uri '{uri}' has no port: write tcp://host:port.");
            }

            if (options.Port is not null)
            {
                errors.Add($"{where}: set Uri or Port, not both.");
            }
        }
        else if (options.Port is not { } port)
        {
            errors.Add($"{where}: Uri or Port is required (where the router listens).");
        }
        else if (port is < 1 or > 65535)
        {
            errors.Add($"{where}: Port {port} is not a TCP port (1 to 65535).");
        }

        if (options.Name is { } registered && string.IsNullOrWhiteSpace(registered))
        {
            errors.Add($"{where}: Name must not be blank.");
        }

        if (options.Client is null)
        {
            errors.Add($"{where}: Client must not be null.");
        }

        return errors.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(errors);
    }
}
