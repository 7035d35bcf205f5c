using System.Buffers;
using JsonRpc.Server.Routing;

namespace JsonRpc.Server.Tests;

/// <summary>The per-connection outbound queue's bound: the memory its messages hold, not only the bytes written in them.</summary>
public sealed class OutboundQueueTests
{
    [Fact]
    public void Enqueue_SmallMessagesInLargerBuffers_BoundCountsTheBuffersHeld()
    {
        // 40-byte answers, each in a 256-byte pooled buffer (the router's smallest): a 4 KiB bound holds 16 of them,
        // not 102 as counting written bytes would allow, which let a client that never reads hold ~6x the bound.
        var queue = new OutboundQueue(4096, progressTimeoutMs: 0); // a writer that takes nothing: the plain bound
        var queued = 0;
        while (queue.Enqueue(new OutboundMessage(ArrayPool<byte>.Shared.Rent(256), 40)) == EnqueueResult.Queued)
        {
            queued++;
            Assert.True(queued <= 1000, "the queue never filled");
        }

        Assert.Equal(4096 / 256, queued);
        Assert.Equal(4096, queue.QueuedBytes);

        // Taking one out makes room for exactly one more.
        Assert.True(queue.TryDequeue(out var taken));
        taken.Return();
        Assert.Equal(EnqueueResult.Queued, queue.Enqueue(new OutboundMessage(ArrayPool<byte>.Shared.Rent(256), 40)));
        Assert.Equal(EnqueueResult.Full, queue.Enqueue(new OutboundMessage(ArrayPool<byte>.Shared.Rent(256), 40)));
        queue.Complete(discard: true);
        Assert.Equal(0, queue.QueuedBytes);
    }

    [Fact]
    public void Enqueue_OneMessageLargerThanTheBound_AcceptedIntoAnEmptyQueue()
    {
        var queue = new OutboundQueue(1024, progressTimeoutMs: 0);
        Assert.Equal(EnqueueResult.Queued, queue.Enqueue(new OutboundMessage(ArrayPool<byte>.Shared.Rent(8192), 5000)));
        Assert.Equal(EnqueueResult.Full, queue.Enqueue(new OutboundMessage(ArrayPool<byte>.Shared.Rent(256), 10)));
        queue.Complete(discard: true);
    }

    [Fact]
    public void Enqueue_AnswersReleasedTogetherToAReader_PassTheBoundUpToTwiceIt()
    {
        // The writer took a message just now (the client reads): answers released at once may pass the bound for a
        // moment, up to twice it; a client that never reads still cannot make the router hold more than that.
        var queue = new OutboundQueue(4096);
        Assert.Equal(EnqueueResult.Queued, queue.Enqueue(new OutboundMessage(ArrayPool<byte>.Shared.Rent(256), 40)));
        Assert.True(queue.TryDequeue(out var taken));
        taken.Return();
        var queued = 0;
        while (queue.Enqueue(new OutboundMessage(ArrayPool<byte>.Shared.Rent(256), 40)) == EnqueueResult.Queued)
        {
            queued++;
            Assert.True(queued <= 1000, "the queue never filled");
        }

        Assert.Equal(2 * 4096 / 256, queued);
        queue.Complete(discard: true);
        Assert.Equal(0, queue.QueuedBytes);
    }

    [Fact]
    public void Enqueue_OwedAnswersBurst_PassTwiceTheBoundWhileTheClientReads_RefusedOnceItStopped()
    {
        // A provider with 200 of this client's calls leaves: the router writes 200 errors at once. They are owed to a
        // client that reads, so they pass even twice the bound; an ordinary message beside them does not.
        var queue = new OutboundQueue(4096, progressTimeoutMs: 60_000);
        Assert.Equal(EnqueueResult.Queued, queue.Enqueue(new OutboundMessage(ArrayPool<byte>.Shared.Rent(256), 40)));
        for (var i = 0; i < 200; i++)
        {
            Assert.Equal(EnqueueResult.Queued, queue.Enqueue(new OutboundMessage(ArrayPool<byte>.Shared.Rent(256), 40), owed: true));
        }

        Assert.True(queue.QueuedBytes > 2 * 4096);
        Assert.Equal(EnqueueResult.Full, queue.Enqueue(new OutboundMessage(ArrayPool<byte>.Shared.Rent(256), 40)));
        queue.Complete(discard: true);

        // A client whose writer has taken nothing for the timeout gets nothing past the bound, owed or not.
        var stalled = new OutboundQueue(4096, progressTimeoutMs: 0);
        while (stalled.Enqueue(new OutboundMessage(ArrayPool<byte>.Shared.Rent(256), 40)) == EnqueueResult.Queued)
        {
            Assert.True(stalled.QueuedBytes <= 4096);
        }

        Assert.Equal(EnqueueResult.Full, stalled.Enqueue(new OutboundMessage(ArrayPool<byte>.Shared.Rent(256), 40), owed: true));
        stalled.Complete(discard: true);
    }
}
