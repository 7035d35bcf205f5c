using System.ComponentModel;

namespace JsonRpc.Contracts;

/// <summary>
/// Where a served implementation's events go as notifications: a dispatcher sends them to every connection it serves,
/// a client to its peer (which, for a router, passes them to the event's subscribers). Not for hand-written code: the
/// code generated for <see cref="JsonRpcContractAttribute"/> interfaces gets one from the host it adds a target to.
/// </summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public abstract class JsonRpcEventSender
{
    /// <summary>Sends the notification <paramref name="eventName"/> with <paramref name="params"/> (a JSON array); never blocks, never throws.</summary>
    /// <param name="eventName">The event's wire name: the notification's method.</param>
    /// <param name="params">The notification's params, valid only during the call.</param>
    public abstract void Send(string eventName, ReadOnlySpan<byte> @params);

    /// <summary>An event's args could not be serialized: the event was not sent. By default nothing else happens.</summary>
    public virtual void OnFailed(string eventName, Exception exception)
    {
    }
}
