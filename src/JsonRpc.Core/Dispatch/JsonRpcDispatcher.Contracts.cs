using System.Text.Json;
using JsonRpc.Contracts;

namespace JsonRpc.Dispatch;

public sealed partial class JsonRpcDispatcher
{
    // Each target added, with what undoes it: its methods removed, its events unsubscribed.
    private readonly List<(object Target, IDisposable Registration)> _targets = [];

    /// <summary>Sends the events of this dispatcher's targets to the connections it serves.</summary>
    internal PeerEventSender Peers { get; } = new();

    /// <summary>
    /// Serves <paramref name="target"/>'s methods, as the source generator wrote them for the
    /// <see cref="JsonRpcContractAttribute"/> interface <typeparamref name="TContract"/>, with the metadata of the
    /// contract's <c>JsonSerializerContext</c> (else <see cref="JsonRpcDispatcherOptions.SerializerOptions"/>).
    /// The contract's events (<see cref="EventHandler"/>, <see cref="EventHandler{TEventArgs}"/>) are subscribed to: each
    /// one raised goes as a notification named after the event, params <c>[args]</c> (StreamJsonRpc's
    /// <c>NotifyClientOfEvents</c>), to every connection <see cref="ServeAsync"/> serves at that moment (dropped for a
    /// peer that is backed up past <see cref="JsonRpcDispatcherOptions.MaxOutboundBytes"/>).
    /// <see cref="RemoveTarget"/> unsubscribes.
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
        var registration = add(this, target, options);
        lock (_targets)
        {
            _targets.Add((target, registration));
        }

        return this;
    }

    /// <summary>
    /// Sends the events of this dispatcher's contract targets to <paramref name="peer"/> too, until the result is
    /// disposed: for a host that runs its connections itself (the connections <see cref="ServeAsync"/> serves get them
    /// already). Each event reaches <see cref="JsonRpcPeerChannel.TrySend"/> as one complete notification.
    /// </summary>
    /// <returns>Disposed: the peer gets no more events.</returns>
    public IDisposable AttachPeer(JsonRpcPeerChannel peer)
    {
        ArgumentNullException.ThrowIfNull(peer);
        Peers.Add(peer);
        return JsonRpcContractSupport.Registration(() => Peers.Remove(peer));
    }

    /// <summary>
    /// Stops serving a target added with <c>AddTarget</c>: removes the methods it added and unsubscribes from its
    /// events, so that the dispatcher no longer holds it nor it the dispatcher.
    /// </summary>
    /// <returns>False when <paramref name="target"/> was not added (compared by reference).</returns>
    public bool RemoveTarget(object target)
    {
        ArgumentNullException.ThrowIfNull(target);
        IDisposable? registration = null;
        lock (_targets)
        {
            for (var i = 0; i < _targets.Count; i++)
            {
                if (ReferenceEquals(_targets[i].Target, target))
                {
                    registration = _targets[i].Registration;
                    _targets.RemoveAt(i);
                    break;
                }
            }
        }

        registration?.Dispose();
        return registration is not null;
    }
}
