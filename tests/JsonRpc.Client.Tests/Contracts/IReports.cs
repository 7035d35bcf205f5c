using System.Text.Json.Serialization;
using JsonRpc.Contracts;

namespace JsonRpc.Client.Tests.Contracts;

/// <summary>The worker's contract in README's dependency injection example.</summary>
[JsonRpcContract(typeof(ReportsJson))]
public interface IReports
{
    [JsonRpcMethod("reports.count")]
    Task<int> CountAsync(string topic, CancellationToken cancellationToken = default);
}

/// <summary>Served from DI by the worker: a new instance per call.</summary>
public sealed class ReportService : IReports
{
    public Task<int> CountAsync(string topic, CancellationToken cancellationToken = default) => Task.FromResult(topic.Length);
}

[JsonSerializable(typeof(int))]
[JsonSerializable(typeof(string))]
public sealed partial class ReportsJson : JsonSerializerContext;
