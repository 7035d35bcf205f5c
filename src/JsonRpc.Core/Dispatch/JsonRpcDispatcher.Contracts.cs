using System.Text.Json;
using JsonRpc.Contracts;

namespace JsonRpc.Dispatch;

public sealed partial class JsonRpcDispatcher
{
    /// <summary>
    /// Serves <paramref name="target"/>'s methods, as the source generator wrote them for the
    /// <see cref="JsonRpcContractAttribute"/> interface <typeparamref name="TContract"/>, with the metadata of the
    /// contract's <c>JsonSerializerContext</c> (else <see cref="JsonRpcDispatcherOptions.SerializerOptions"/>).
    /// </summary>
    /// <exception cref="InvalidOperationException">No code was generated for <typeparamref name="TContract"/>, or a type lacks metadata.</exception>
    /// <exception cref="ArgumentException">A method of one of the contract's names is already registered.</exception>
    public JsonRpcDispatcher AddTarget<TContract>(TContract target)
        where TContract : class
        => AddTarget(target, JsonRpcContractSupport.DispatcherTargets<TContract>.DefaultOptions?.Invoke() ?? Options.SerializerOptions);

    /// <summary>Serves <paramref name="target"/>'s methods with the metadata of <paramref name="options"/>.</summary>
    /// <inheritdoc cref="AddTarget{TContract}(TContract)"/>
    public JsonRpcDispatcher AddTarget<TContract>(TContract target, JsonSerializerOptions options)
        where TContract : class
    {
        ArgumentNullException.ThrowIfNull(target);
        ArgumentNullException.ThrowIfNull(options);
        var add = JsonRpcContractSupport.DispatcherTargets<TContract>.AddTarget
            ?? throw new InvalidOperationException(JsonRpcContractSupport.NotAContract(typeof(TContract)));
        add(this, target, options);
        return this;
    }
}
