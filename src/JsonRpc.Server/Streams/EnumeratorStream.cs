using JsonRpc.Server.Routing;

namespace JsonRpc.Server.Streams;

/// <summary>
/// One StreamJsonRpc async enumerable that crosses the router: the generator that issued it under its own token, the
/// consumer that pulls it under the router's (unique in the router, so that two generators' tokens never meet at one
/// consumer), and whether a pull is on its way. Lives from the message that carried it until the generator says it is
/// finished or fails, the consumer aborts it, the call whose argument it was ends, or either side leaves; counted in
/// the consumer's memory bound meanwhile.
/// </summary>
internal sealed class EnumeratorStream(long token, RouterConnection generator, RouterConnection consumer, byte[] generatorToken)
{
    /// <summary>What the router holds per stream, counted against the consumer's bound: this object, its token and entries.</summary>
    public const int Cost = 256;

    /// <summary>The router's token: what the consumer sees and sends back.</summary>
    public long Token { get; } = token;

    public RouterConnection Generator { get; } = generator;

    public RouterConnection Consumer { get; } = consumer;

    /// <summary>The generator's token exactly as it wrote it.</summary>
    public byte[] GeneratorToken { get; } = generatorToken;

    /// <summary>1 while a <c>$/enumerator/next</c> is on its way to the generator: one at a time per stream.</summary>
    public int Pulling;

    /// <summary>Set once: the stream is out of the router's tables.</summary>
    public int Ended;

    // Reading ahead (JsonRpcRouter.ReadAhead.cs), for a generator that prefetches: the router pulls the next batch while
    // the consumer works through the last, so that the consumer's pull is answered from here. Guarded by Gate.
    public readonly Lock Gate = new();

    /// <summary>The router pulls one batch ahead of the consumer (the generator sent values with its token).</summary>
    public bool ReadsAhead;

    /// <summary>The router's own pull, on its way to the generator and not yet taken over by a consumer's pull.</summary>
    public RoutedCall? Ahead;

    /// <summary>The generator's answer to <see cref="Ahead"/>, waiting for the consumer's pull (its id at <see cref="BufferedId"/>).</summary>
    public OutboundMessage? Buffered;

    public Range BufferedId;

    public bool BufferedFinished;

    /// <summary>How <see cref="Ahead"/> failed (timeout, generator gone), for the consumer's next pull.</summary>
    public (int Code, string Message, string? Data)? AheadFailed;

    /// <summary>Bytes counted against the consumer's bound for <see cref="Buffered"/>.</summary>
    public long Reserved;

    /// <summary>Size of the last batch the generator sent: the room a read-ahead reserves is twice it.</summary>
    public int LastBatchBytes;

    /// <summary>Identity, as for any object.</summary>
    public override bool Equals(object? obj) => ReferenceEquals(this, obj);

    /// <summary>
    /// The router's token, unique among live streams: cheaper than the object's identity hash, which the runtime makes
    /// on first use in the object's header (the streams sets of both connections hash every stream as it opens and ends).
    /// </summary>
    public override int GetHashCode() => Token.GetHashCode();
}
