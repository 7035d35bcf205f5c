using System.Runtime.CompilerServices;
using System.Text.Json.Serialization;
using JsonRpc.Contracts;

namespace JsonRpc.Client.Tests.Contracts;

/// <summary>Says which dependency injection scope served the call: the id of the call's scoped <see cref="ScopedDependency"/>.</summary>
[JsonRpcContract(typeof(ScopeProbeJson))]
public interface IScopeProbe
{
    Task<int> ScopeAsync(CancellationToken cancellationToken = default);
}

/// <summary>Streams the id of the scope that serves the whole enumeration, <paramref name="count"/> times (hosted clients only: the dispatcher serves no streams).</summary>
[JsonRpcContract(typeof(ScopeProbeJson))]
public interface IScopeStream
{
    IAsyncEnumerable<int> ScopesAsync(int count, CancellationToken cancellationToken);
}

[JsonSerializable(typeof(int))]
public sealed partial class ScopeProbeJson : JsonSerializerContext;

/// <summary>A singleton that counts the scoped dependencies made and disposed, and numbers them 1, 2, 3… as they are made.</summary>
public sealed class ScopeLedger
{
    private int _created;
    private int _disposed;

    public int Created => Volatile.Read(ref _created);

    public int Disposed => Volatile.Read(ref _disposed);

    public int Create() => Interlocked.Increment(ref _created);

    public void Dispose() => Interlocked.Increment(ref _disposed);
}

/// <summary>A scoped dependency of the served implementations: one per scope, disposed with it.</summary>
public sealed class ScopedDependency(ScopeLedger ledger) : IDisposable
{
    private int _disposed;

    public int Id { get; } = ledger.Create();

    public bool IsDisposed => Volatile.Read(ref _disposed) != 0;

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            ledger.Dispose();
        }
    }
}

/// <summary>The implementation served from DI: answers with its scoped dependency's id, checking it was not disposed mid-call.</summary>
public sealed class ScopeProbeService(ScopedDependency dependency) : IScopeProbe, IScopeStream
{
    public async Task<int> ScopeAsync(CancellationToken cancellationToken)
    {
        await Task.Yield();
        ObjectDisposedException.ThrowIf(dependency.IsDisposed, dependency);
        return dependency.Id;
    }

    public async IAsyncEnumerable<int> ScopesAsync(int count, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        for (var i = 0; i < count; i++)
        {
            await Task.Yield();
            ObjectDisposedException.ThrowIf(dependency.IsDisposed, dependency);
            yield return dependency.Id;
        }
    }
}

/// <summary>A contract one of whose wire names is the router's own (<c>keepAlive</c>): the router must refuse to serve it.</summary>
[JsonRpcContract(typeof(ScopeProbeJson))]
public interface IClashesWithTheRouter
{
    Task<int> ScopeAsync(CancellationToken cancellationToken = default);

    [JsonRpcMethod("keepAlive")]
    Task<int> KeepAliveAsync();
}

public sealed class Clash : IClashesWithTheRouter
{
    public Task<int> ScopeAsync(CancellationToken cancellationToken) => Task.FromResult(0);

    public Task<int> KeepAliveAsync() => Task.FromResult(0);
}
