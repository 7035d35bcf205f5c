using System.Buffers;

namespace JsonRpc.Client.Internal;

/// <summary>What a <see cref="ClientConnection"/> reports to the client that owns it.</summary>
internal interface IConnectionOwner
{
    /// <summary>One framed message, valid only during the call (the read loop advances past it afterwards). Must not throw.</summary>
    void OnMessage(ClientConnection connection, in ReadOnlySequence<byte> message);

    /// <summary>The connection closed, for <paramref name="reason"/>; called once, from whichever thread noticed.</summary>
    void OnClosed(ClientConnection connection, Exception reason);
}
