namespace JsonRpc.Contracts;

/// <summary>
/// The name a method or event of a <see cref="JsonRpcContractAttribute"/> interface has on the wire, when not its C#
/// name (for an event: the method of the notification that raises it).
/// </summary>
/// <param name="name">The wire name, e.g. <c>"calc.add"</c>.</param>
[AttributeUsage(AttributeTargets.Method | AttributeTargets.Event, Inherited = false)]
public sealed class JsonRpcMethodAttribute(string name) : Attribute
{
    /// <summary>The wire name.</summary>
    public string Name { get; } = name;
}
