namespace JsonRpc.Client.Internal;

/// <summary>Turns a call's result into what the caller asked for; implemented by structs so nothing is boxed.</summary>
internal interface IResultReader<TResult>
{
    /// <summary>
    /// Whether this reader keeps the result's bytes as they are (<see cref="PendingCall.HandsOverPayload"/>): a large
    /// result is then read into an array of its own, which <see cref="Read"/> takes over.
    /// </summary>
    static virtual bool KeepsPayload => false;

    /// <summary>Reads the result of <paramref name="call"/>, whose outcome is <see cref="CallOutcome.Result"/>.</summary>
    TResult Read(PendingCall call);
}
