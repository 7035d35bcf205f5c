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

    // The wake-up tests below stay on one thread from WriterWakes.Begin to End, as a read loop does (the wake-ups held
    // are the thread's), so they wait for the writer synchronously: it goes on on the pool or on this very thread, never
    // on a context that this blocking could hold up.
#pragma warning disable xUnit1031 // blocking on the writer's task: see above

    // The writer as the router runs it: awaits the queue's wait and notes the thread it went on on.
    private static async Task<(bool More, int Thread)> WriterAsync(ValueTask<bool> wait)
    {
        var more = await wait.ConfigureAwait(false);
        return (more, Environment.CurrentManagedThreadId);
    }

    private static OutboundMessage Message(int size) => new(ArrayPool<byte>.Shared.Rent(size), size);

    [Fact]
    public void Enqueue_WhileAReadIsHandled_WakesTheWriterOnlyAtItsEnd_OnTheReadersThread()
    {
        var queue = new OutboundQueue(1 << 20);
        var writer = WriterAsync(queue.WaitAsync());
        Assert.False(writer.IsCompleted);

        Assert.True(WriterWakes.Begin());
        Assert.False(WriterWakes.Begin()); // a read loop further up holds them already
        Assert.Equal(EnqueueResult.Queued, queue.Enqueue(Message(100)));
        Assert.Equal(EnqueueResult.Queued, queue.Enqueue(Message(100)));
        Assert.False(writer.IsCompleted); // held: the read is still being handled

        WriterWakes.End();
        Assert.True(writer.IsCompleted); // woken before End returned, so on this thread, not the pool's
        Assert.Equal((true, Environment.CurrentManagedThreadId), writer.Result);
        Assert.True(queue.TryDequeue(out var first));
        Assert.True(queue.TryDequeue(out var second));
        first.Return();
        second.Return();

        // Outside a read the writer is woken at once, on the pool.
        writer = WriterAsync(queue.WaitAsync());
        Assert.Equal(EnqueueResult.Queued, queue.Enqueue(Message(100)));
        Assert.True(writer.Wait(TimeSpan.FromSeconds(30)));
        Assert.True(writer.Result.More);
        queue.Complete(discard: true);
    }

    [Fact]
    public void Enqueue_PastTheDeferredBytesWhileAReadIsHandled_WakesTheWriterAtOnce()
    {
        // A read that routes a lot to one connection does not hold all of it back until the read is handled.
        var queue = new OutboundQueue(16 << 20);
        var writer = WriterAsync(queue.WaitAsync());
        Assert.True(WriterWakes.Begin());
        try
        {
            var queued = 0L;
            while (queued <= OutboundQueue.MaxDeferredBytes)
            {
                Assert.False(writer.IsCompleted);
                Assert.Equal(EnqueueResult.Queued, queue.Enqueue(Message(16 * 1024)));
                queued += 16 * 1024;
            }

            Assert.True(writer.Wait(TimeSpan.FromSeconds(30)), "the writer was not woken past the deferred bytes");
            Assert.True(writer.Result.More);
        }
        finally
        {
            WriterWakes.End(); // nothing left to wake: a no-op for this queue
        }

        queue.Complete(discard: true);
    }

    [Fact]
    public void Complete_WhileAWakeIsHeld_WakesTheWriterOnce_AndEndThenDoesNothing()
    {
        var queue = new OutboundQueue(1 << 20);
        var writer = WriterAsync(queue.WaitAsync());
        Assert.True(WriterWakes.Begin());
        Assert.Equal(EnqueueResult.Queued, queue.Enqueue(Message(100)));
        Assert.False(writer.IsCompleted);

        queue.Complete(discard: true); // the connection closes in the middle of the read
        Assert.True(writer.Wait(TimeSpan.FromSeconds(30)));
        Assert.False(writer.Result.More); // discarded: nothing left to write
        WriterWakes.End();
        Assert.Equal(0, queue.QueuedBytes);

        // The next wait of a completed queue ends at once.
        Assert.False(queue.WaitAsync().Result);
    }
#pragma warning restore xUnit1031
}
