using JsonRpc.Server;

// The standalone JSON-RPC router: `dotnet run --project src/JsonRpc.Router` serves 127.0.0.1:8080.
// Settings: appsettings.json's "JsonRpcRouter" section, JsonRpcRouter__* environment variables, and the command line
// (`--port 9000`, `--call_timeout_ms 5000`, or `--JsonRpcRouter:Port=9000`). Ctrl+C shuts down gracefully.
// The content root is the app's own folder, so its appsettings.json is found whatever the working directory
// (`dotnet run --project`, or the installed tool).
var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = args, ContentRootPath = AppContext.BaseDirectory });
builder.Configuration.AddCommandLine(args, JsonRpcRouterConfiguration.CommandLineSwitchMappings
    .Concat(JsonRpc.Server.Cluster.JsonRpcClusterConfiguration.CommandLineSwitchMappings).ToDictionary());
builder.Services.AddJsonRpcRouter();
builder.Services.AddJsonRpcCluster(); // joins a cluster only when --nats_url (NatsUrl) is set
builder.WebHost.ConfigureKestrel(kestrel => kestrel.ListenJsonRpcRouter());

var app = builder.Build();
app.Lifetime.ApplicationStarted.Register(() =>
{
    var options = app.Services.GetRequiredService<Microsoft.Extensions.Options.IOptions<JsonRpcRouterOptions>>().Value;
    var tls = options.Certificate is not null || options.CertificatePath is not null;
    var addresses = string.Join(", ", app.Urls.Select(url => (tls ? "tls" : "tcp") + url[url.IndexOf(':')..]));
    app.Logger.LogInformation("JSON-RPC router listening on {Addresses}{Tls}. Press Ctrl+C to stop.",
        addresses, tls ? " (TLS)" : string.Empty);
});
await app.RunAsync();
