namespace JsonRpc.Client.Internal;

/// <summary>Turns a result's bytes into what the caller asked for; implemented by structs so nothing is boxed.</summary>
internal interface IResultReader<TResult>
{
    TResult Read(ReadOnlySpan<byte> result);
}
