using System.Globalization;
using JsonRpc.Diagnostics;
using JsonRpc.Server;
using OpenTelemetry;
using OpenTelemetry.Exporter;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;

namespace JsonRpc.Router;

/// <summary>
/// <c>--otlp_endpoint</c>: the standalone router sends its traces (the router's and its host methods' spans) and its
/// metrics (the <c>JsonRpc.Router</c> meter) over OTLP with the OpenTelemetry SDK and its OTLP exporter, to a collector,
/// Jaeger, Tempo or anything else that speaks OTLP. Off unless the endpoint is set: then nothing listens to the router's
/// sources and tracing costs nothing.
/// </summary>
internal static class RouterTelemetry
{
    /// <summary>The service name the router reports as (OpenTelemetry's <c>service.name</c>).</summary>
    public const string ServiceName = "jsonrpc-router";

    /// <summary>The settings, beside the router's in the <c>JsonRpcRouter</c> section (read in <see cref="Add"/>).</summary>
    internal static ConfigOption[] Options { get; } =
    [
        new("OtlpEndpoint", "otlp_endpoint", "<url>", "none (no export)", "Send traces and metrics over OTLP to this collector (http://host:4317 for gRPC, http://host:4318 for HTTP)."),
        new("OtlpProtocol", "otlp_protocol", "grpc|http/protobuf", "grpc", "The OTLP transport."),
        new("OtlpIntervalMs", "otlp_interval_ms", "<ms>", "60000", "How often metrics are exported over OTLP."),
    ];

    /// <summary>The command-line switches of <see cref="Options"/>.</summary>
    public static IReadOnlyDictionary<string, string> SwitchMappings { get; } = ConfigOption.SwitchMappings(Options);

    /// <summary>Adds the OpenTelemetry SDK with OTLP export when an endpoint is configured.</summary>
    /// <exception cref="InvalidOperationException">A value cannot be used; the message names the option.</exception>
    public static void Add(WebApplicationBuilder builder)
    {
        var section = builder.Configuration.GetSection(JsonRpcRouterOptions.SectionName);
        var endpointText = Read(section, "OtlpEndpoint", "otlp_endpoint");
        if (string.IsNullOrWhiteSpace(endpointText))
        {
            return;
        }

        if (!Uri.TryCreate(endpointText, UriKind.Absolute, out var endpoint) || endpoint.Scheme is not ("http" or "https"))
        {
            throw new InvalidOperationException($"otlp_endpoint: '{endpointText}' is not an http:// or https:// URL.");
        }

        var protocol = (Read(section, "OtlpProtocol", "otlp_protocol") ?? "grpc").ToLowerInvariant() switch
        {
            "grpc" => OtlpExportProtocol.Grpc,
            "http/protobuf" or "http" => OtlpExportProtocol.HttpProtobuf,
            var other => throw new InvalidOperationException($"otlp_protocol: '{other}' is neither grpc nor http/protobuf."),
        };
        var intervalText = Read(section, "OtlpIntervalMs", "otlp_interval_ms");
        var interval = 60_000;
        if (intervalText is not null && (!int.TryParse(intervalText, NumberStyles.None, CultureInfo.InvariantCulture, out interval) || interval < 100))
        {
            throw new InvalidOperationException($"otlp_interval_ms: '{intervalText}' is not a number of milliseconds of at least 100.");
        }

        var node = Read(section, "NodeName", "node_name"); // the cluster's node name, when there is one
        builder.Services.AddOpenTelemetry()
            .ConfigureResource(resource => resource.AddService(ServiceName, serviceInstanceId: node, autoGenerateServiceInstanceId: node is null))
            .WithTracing(tracing => tracing
                .AddSource(JsonRpcTelemetry.RouterSourceName, JsonRpcTelemetry.DispatcherSourceName)
                .AddOtlpExporter(otlp => Configure(otlp, endpoint, protocol, "v1/traces")))
            .WithMetrics(metrics => metrics
                .AddMeter(JsonRpcTelemetry.RouterSourceName)
                .AddOtlpExporter((otlp, reader) =>
                {
                    Configure(otlp, endpoint, protocol, "v1/metrics");
                    reader.PeriodicExportingMetricReaderOptions.ExportIntervalMilliseconds = interval;
                }));
    }

    /// <summary>
    /// gRPC takes the endpoint as it is; OTLP/HTTP takes a URL per signal, so the signal's path is added to a base URL
    /// (<c>http://collector:4318</c> becomes <c>http://collector:4318/v1/traces</c>).
    /// </summary>
    private static void Configure(OtlpExporterOptions otlp, Uri endpoint, OtlpExportProtocol protocol, string signalPath)
    {
        otlp.Protocol = protocol;
        otlp.Endpoint = protocol == OtlpExportProtocol.HttpProtobuf && endpoint.AbsolutePath is "/" or ""
            ? new Uri(endpoint, signalPath)
            : endpoint;
    }

    private static string? Read(IConfiguration section, string name, string alias) => section[name] ?? section[alias];
}
