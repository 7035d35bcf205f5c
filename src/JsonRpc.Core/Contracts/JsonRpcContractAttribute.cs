namespace JsonRpc.Contracts;

/// <summary>
/// Marks an interface as a JSON-RPC contract: the JsonRpc source generator (shipped in the JsonRpc.Client package) writes
/// a proxy for it (<c>client.Attach&lt;T&gt;()</c>) and the code that serves an implementation of it
/// (<c>client.AddTarget&lt;T&gt;(…)</c>, <c>dispatcher.AddTarget&lt;T&gt;(…)</c>), with no reflection at run time.
/// </summary>
/// <remarks>
/// Methods return <see cref="Task"/>, <see cref="Task{TResult}"/>, <see cref="ValueTask"/>, <see cref="ValueTask{TResult}"/>
/// or <see cref="IAsyncEnumerable{T}"/>, and may take a <see cref="CancellationToken"/> and <see cref="IProgress{T}"/>
/// parameters; the wire name is the method's name unless <see cref="JsonRpcMethodAttribute"/> gives one. Params go
/// by position, as StreamJsonRpc's proxies send them; a served method also accepts them by name. Events of type
/// <see cref="EventHandler"/> or <see cref="EventHandler{TEventArgs}"/> travel as StreamJsonRpc's do: a served
/// implementation's event is the notification named after it (or its <see cref="JsonRpcMethodAttribute"/> name) with
/// params <c>[args]</c>, and a proxy raises its event for each such notification.
/// </remarks>
[AttributeUsage(AttributeTargets.Interface, Inherited = false)]
public sealed class JsonRpcContractAttribute : Attribute
{
    /// <summary>A contract whose types' metadata comes from the options given to <c>Attach</c>/<c>AddTarget</c>, else the client's or dispatcher's.</summary>
    public JsonRpcContractAttribute()
    {
    }

    /// <summary>A contract whose types' metadata comes from <paramref name="serializerContext"/>'s <c>Default</c> instance unless options are given.</summary>
    /// <param name="serializerContext">A source-generated <c>JsonSerializerContext</c> that has every parameter, result and progress type of the contract.</param>
    public JsonRpcContractAttribute(Type serializerContext) => SerializerContext = serializerContext;

    /// <summary>The source-generated <c>JsonSerializerContext</c> for the contract's types, or null.</summary>
    public Type? SerializerContext { get; }
}
