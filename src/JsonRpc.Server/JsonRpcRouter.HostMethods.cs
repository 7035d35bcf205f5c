using System.Diagnostics.CodeAnalysis;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Dispatch;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server;

public sealed partial class JsonRpcRouter
{
    private const string ReflectionMessage = "Binds with reflection-based serialization; use an overload that takes JsonTypeInfo for trimming and AOT.";
    private readonly CancellationTokenSource _stopping = new();
    private int _hostCallsInProgress;

    /// <summary>
    /// The host's own methods, served in-process to every client like any routed method (and listed by
    /// <c>list_methods</c> with <c>"server": true</c>). A host method shadows a client-provided method of the same
    /// name; names of the router's own methods (<see cref="RouterMethods"/>) are answered by the router first.
    /// Handlers get a token that is cancelled when the caller sends <c>$/cancelRequest</c> for the call, when it disconnects, or when the router shuts down.
    /// </summary>
    public JsonRpcDispatcher Methods { get; }

    /// <summary>Cancelled when shutdown gives up waiting for calls.</summary>
    internal CancellationToken StoppingToken => _stopping.Token;

    /// <summary>Adds a host method that takes no params, e.g. <c>router.AddMethod("time", () => DateTimeOffset.UtcNow, ctx.DateTimeOffset)</c>.</summary>
    /// <exception cref="ArgumentException">The name is taken by the router or by another host method.</exception>
    public JsonRpcRouter AddMethod<TResult>(string method, Func<TResult> handler, JsonTypeInfo<TResult> result)
    {
        CheckHostMethodName(method);
        Methods.Add(method, handler, result);
        return this;
    }

    /// <summary>Adds a host method whose whole params value binds to <typeparamref name="TParams"/>.</summary>
    /// <exception cref="ArgumentException">The name is taken by the router or by another host method.</exception>
    public JsonRpcRouter AddMethod<TParams, TResult>(string method, Func<TParams, CancellationToken, ValueTask<TResult>> handler, JsonTypeInfo<TParams> parameters, JsonTypeInfo<TResult> result)
    {
        CheckHostMethodName(method);
        Methods.Add(method, handler, parameters, result);
        return this;
    }

    /// <summary>
    /// Adds a host method from any delegate, binding parameters by position or name with reflection-based
    /// serialization, e.g. <c>router.AddMethod("add", (int a, int b) => a + b)</c>.
    /// </summary>
    /// <exception cref="ArgumentException">The name is taken by the router or by another host method.</exception>
    [RequiresUnreferencedCode(ReflectionMessage)]
    [RequiresDynamicCode(ReflectionMessage)]
    public JsonRpcRouter AddMethod(string method, Delegate handler)
    {
        CheckHostMethodName(method);
        Methods.Add(method, handler);
        return this;
    }

    /// <summary>
    /// Serves <paramref name="target"/>'s methods of the <c>[JsonRpcContract]</c> interface
    /// <typeparamref name="TContract"/> as host methods (see <see cref="JsonRpcDispatcher.AddTarget{TContract}(TContract)"/>).
    /// In a hosted app, <c>services.AddJsonRpcTarget&lt;TContract, TImplementation&gt;()</c> does it with a scope per call.
    /// The contract's events that <paramref name="target"/> raises are published: each goes, as the notification named
    /// after it with params <c>[args]</c>, to the clients subscribed to that name (a generated proxy subscribes while its
    /// event has handlers). A per-call implementation raises none: it lives for one call.
    /// </summary>
    /// <exception cref="ArgumentException">One of the contract's names is taken by the router or by another host method.</exception>
    /// <exception cref="InvalidOperationException">No code was generated for <typeparamref name="TContract"/>.</exception>
    public JsonRpcRouter AddTarget<TContract>(TContract target)
        where TContract : class
    {
        // The contract's names are known only once they are added: a dispatcher of its own finds them, and any clash
        // with the router's names leaves the router's methods untouched. Removed again, so that it stops listening to
        // the target's events.
        var probe = new JsonRpcDispatcher(Methods.Options).AddTarget(target);
        string[] names = [.. probe.Methods];
        probe.RemoveTarget(target);
        foreach (var name in names)
        {
            CheckHostMethodName(name);
        }

        Methods.AddTarget(target);
        return this;
    }

    private static void CheckHostMethodName(string method)
    {
        ArgumentException.ThrowIfNullOrEmpty(method);
        if (JsonRpc.Protocol.JsonRpcProtocolMethods.IsReserved(method))
        {
            throw new ArgumentException($"'{method}': names starting with '$/' are reserved for protocol extensions.", nameof(method));
        }

        if (RouterMethods.IsBuiltIn(method))
        {
            throw new ArgumentException($"'{method}' is one of the router's own methods.", nameof(method));
        }
    }

    internal bool IsHostMethod(ReadOnlySpan<byte> nameUtf8) => Methods.Methods.Count > 0 && Methods.Contains(nameUtf8);

    internal void HostCallStarted()
    {
        Interlocked.Increment(ref _hostCallsInProgress);
        Interlocked.Increment(ref Counters.ServerCalls);
    }

    internal void HostCallEnded() => Interlocked.Decrement(ref _hostCallsInProgress);

    private void AddHostMethodNames(List<(string Method, RouterConnection[]? Providers)> entries)
    {
        foreach (var name in Methods.Methods)
        {
            entries.Add((name, null));
        }
    }
}
