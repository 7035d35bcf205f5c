namespace JsonRpc.Contracts;

/// <summary>The name a method of a <see cref="JsonRpcContractAttribute"/> interface has on the wire, when not its C# name.</summary>
/// <param name="name">The wire name, e.g. <c>"calc.add"</c>.</param>
[AttributeUsage(AttributeTargets.Method, Inherited = false)]
public sealed class JsonRpcMethodAttribute(string name) : Attribute
{
    /// <summary>The wire name.</summary>
    public string Name { get; } = name;
}
