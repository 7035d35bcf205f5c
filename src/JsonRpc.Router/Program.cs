using JsonRpc.Router;
using JsonRpc.Server;
using Microsoft.Extensions.Options;

// The standalone JSON-RPC router: `dotnet run --project src/JsonRpc.Router` serves tcp://127.0.0.1:8080; with
// `--http_port 8081` also /rpc (WebSocket and POST), /healthz, /metrics (Prometheus) and the dashboard on
// http://127.0.0.1:8081/; with
// `--nats_url nats://127.0.0.1:4222` it joins the other routers on that NATS as one cluster; with
// `--otlp_endpoint http://127.0.0.1:4317` it sends its traces and metrics over OTLP.
// Settings: appsettings.json's "JsonRpcRouter" section, JsonRpcRouter__* environment variables, and the command line
// (`--port 9000`, `--call_timeout_ms 5000`, or `--JsonRpcRouter:Port=9000`); `--help` lists them. Ctrl+C shuts down
// gracefully. The content root is the app's own folder, so its appsettings.json is found whatever the working
// directory (`dotnet run --project`, or the installed tool).
if (RouterCommandLine.Check(args, Console.Out, Console.Error, out var arguments) is { } exit)
{
    return exit;
}

var started = false;
JsonRpcRouterOptions? options = null;
try
{
    var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = arguments, ContentRootPath = AppContext.BaseDirectory });
    builder.Configuration.AddCommandLine(arguments, RouterCommandLine.SwitchMappings);

    // The router says what listens where in its own words; the generic hosting lines would name ports wrongly.
    builder.Logging.AddFilter("Microsoft.Hosting.Lifetime", LogLevel.Warning);
    // A start that fails (a port in use, a bad setting) is logged by the host with the exception's whole stack; the
    // catch below says it in one line instead.
    builder.Logging.AddFilter("Microsoft.Extensions.Hosting.Internal.Host", LogLevel.Critical);
    // The NATS client (cluster mode) reports every connection attempt with the server's whole INFO at Information; its
    // warnings and errors (a refused login, say) are what an operator needs. The cluster logs its own joins and losses.
    builder.Logging.AddFilter("NATS", LogLevel.Warning);
    builder.Logging.AddSimpleConsole(console => console.SingleLine = true);
    builder.Services.AddJsonRpcRouter();
    builder.Services.AddHealthChecks().AddJsonRpcRouter(); // /healthz
    builder.Services.AddJsonRpcRouterLargeBlocks(); // 128 KiB socket buffers: a 100 KB message in one recv, not 25
    builder.Services.AddJsonRpcCluster(); // joins a cluster only when --nats_url (NatsUrl) is set
    RouterTelemetry.Add(builder);         // traces and metrics over OTLP only when --otlp_endpoint is set
    builder.WebHost.ConfigureKestrel(kestrel => kestrel.ListenJsonRpcRouter());
    RouterIo.Apply(builder);              // socket threads, and messages handled on them (before any socket starts)

    var app = builder.Build();
    options = app.Services.GetRequiredService<IOptions<JsonRpcRouterOptions>>().Value;
    if (options.HttpPort is not null)
    {
        app.MapJsonRpcRouter("/rpc");
        app.MapJsonRpcDashboard("/", "/rpc");
        app.MapHealthChecks("/healthz", HealthCheck.Options);
        app.MapJsonRpcMetrics("/metrics");
    }

    app.Lifetime.ApplicationStarted.Register(() => ListeningLog.Write(app.Logger, app.Services.GetRequiredService<JsonRpcRouterListeners>()));
    started = true;
    await app.RunAsync();
    return 0;
}
catch (IOException ex) when (ex.InnerException is Microsoft.AspNetCore.Connections.AddressInUseException)
{
    Console.Error.WriteLine($"{RouterCommandLine.ToolName}: {StartupErrors.AddressInUse(ex.Message, options)}");
    return 1;
}
catch (Exception ex) when (ex is InvalidOperationException or OptionsValidationException or IOException or FormatException
    or System.Security.Cryptography.CryptographicException or UnauthorizedAccessException)
{
    // A bad value, a failed validation, an unreadable certificate: one line that names it. A setting that cannot be
    // used is a usage error, as an unknown option is; what fails once running (a file gone, say) is not.
    Console.Error.WriteLine($"{RouterCommandLine.ToolName}: {ex.Message.ReplaceLineEndings(" ")}");
    return !started || ex is OptionsValidationException ? RouterCommandLine.UsageError : 1;
}
