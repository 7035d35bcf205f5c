using System.Text.Json;
using JsonRpc.Buffers;
using JsonRpc.Serialization;
using JsonRpc.Server.RouterProtocol;

namespace JsonRpc.Server.Routing;

/// <summary>
/// Collects the responses to one batch, in the order they arrive, and sends them as one array once the last call is
/// answered. A batch with no calls (only notifications or answers) sends nothing. Pooled.
/// </summary>
/// <remarks>
/// The replies are held here, outside the connection's outbound queue, until the last one arrives, so they are bounded
/// on their own: a small batch can ask for far larger replies (a short invalid element is answered with a long error,
/// a call with a result of up to the maximum message size). Once they would pass the byte limit, what was gathered is
/// dropped, later answers are ignored, and the batch is answered with one error instead.
/// </remarks>
internal sealed class BatchReply
{
    private readonly Lock _lock = new();
    private readonly PooledBufferWriter _buffer = new();
    private RouterConnection? _caller;
    private MemoryLedger? _ledger;
    private long _reserved;
    private ObjectStack<BatchReply>? _pool;
    private long _maxBytes;
    private int _outstanding;
    private int _items;
    private bool _overflowed;

    /// <summary>
    /// Starts a batch whose replies may take up to <paramref name="maxBytes"/>; the enumeration itself holds one count,
    /// released by <see cref="End"/>.
    /// </summary>
    public void Begin(RouterConnection caller, ObjectStack<BatchReply> pool, long maxBytes)
    {
        _caller = caller;
        _ledger = caller.Ledger;
        _reserved = 0;
        _pool = pool;
        _maxBytes = maxBytes;
        _outstanding = 1;
        _items = 0;
        _overflowed = false;
        _buffer.Write((byte)'[');
    }

    /// <summary>One more answer will come through <see cref="Complete"/>.</summary>
    public void Expect()
    {
        lock (_lock)
        {
            _outstanding++;
        }
    }

    /// <summary>Adds a response that was not announced with <see cref="Expect"/> (answered on the spot).</summary>
    public void Add(ReadOnlySpan<byte> response)
    {
        lock (_lock)
        {
            Append(response);
        }
    }

    /// <summary>Adds an announced response; sends the batch if it was the last.</summary>
    public void Complete(ReadOnlySpan<byte> response)
    {
        bool done;
        lock (_lock)
        {
            Append(response);
            done = --_outstanding == 0;
        }

        if (done)
        {
            Finish();
        }
    }

    /// <summary>Adds an announced answer with its id token replaced by <paramref name="newId"/>; sends the batch if it was the last.</summary>
    public void CompleteSpliced(ReadOnlySpan<byte> answer, Range idToken, ReadOnlySpan<byte> newId)
    {
        var (start, length) = idToken.GetOffsetAndLength(answer.Length);
        bool done;
        lock (_lock)
        {
            if (Fits(answer.Length - length + newId.Length))
            {
                _buffer.Write(answer[..start]);
                _buffer.Write(newId);
                _buffer.Write(answer[(start + length)..]);
            }

            done = --_outstanding == 0;
        }

        if (done)
        {
            Finish();
        }
    }

    /// <summary>Releases the enumeration's hold; sends the batch if every call was already answered.</summary>
    public void End()
    {
        bool done;
        lock (_lock)
        {
            done = --_outstanding == 0;
        }

        if (done)
        {
            Finish();
        }
    }

    private void Append(ReadOnlySpan<byte> response)
    {
        if (Fits(response.Length))
        {
            _buffer.Write(response);
        }
    }

    // Under the lock: whether one more reply of this size fits (then its separator is written), else the overflow.
    private bool Fits(int length)
    {
        if (_overflowed)
        {
            return false;
        }

        // The separator before it and the closing bracket count too, against the connection's one bound, which its
        // outbound queue and its other batches share: a client cannot hold more by spreading replies over batches.
        if (!_ledger!.TryReserve(2L + length, _maxBytes))
        {
            _overflowed = true;
            _buffer.Reset();
            _ledger.Add(-_reserved);
            _reserved = 0;
            return false;
        }

        _reserved += 2L + length;

        if (_items++ > 0)
        {
            _buffer.Write((byte)',');
        }

        return true;
    }

    // The one answer to a batch whose replies did not fit. Written with a writer of its own, not ReplyWriter.Begin: this
    // may run inside one of ReplyWriter's replies, whose thread-static buffer and writer are still in use. Copied into a
    // buffer of its own size: the writer's working buffer (4 KB and more) would count many times over against the
    // connection's bound while the errors of several batches wait to be sent.
    private OutboundMessage OverflowError()
    {
        WriteOverflowError();
        var message = ReplyWriter.Copy(_buffer.WrittenSpan);
        _buffer.Reset();
        return message;
    }

    private void WriteOverflowError()
    {
        using var writer = new Utf8JsonWriter(_buffer, JsonRpcMessageWriter.WriterOptions);
        ReplyWriter.WriteStart(writer, idToken: default);
        ReplyWriter.WriteErrorMember(writer, RouterErrorCodes.MessageTooLarge, "Message too large",
            $"The replies to the batch would take this connection past {_maxBytes} bytes held (its outbound queue and waiting batches together); send fewer calls per batch, or read what is sent.");
        writer.WriteEndObject();
    }

    private void Finish()
    {
        var caller = _caller!;
        var pool = _pool!;
        if (_overflowed)
        {
            caller.CountError();
            caller.Send(OverflowError());
        }
        else if (_items > 0)
        {
            _buffer.Write((byte)']');
            caller.Send(OutboundMessage.TakeFrom(_buffer));
        }
        else
        {
            _buffer.Reset();
        }

        // Now in the outbound queue (counted there) or gone.
        _ledger!.Add(-_reserved);
        _reserved = 0;
        _ledger = null;
        _caller = null;
        _pool = null;
        pool.Return(this);
    }
}
