using JsonRpc.Buffers;

namespace JsonRpc.Server.Routing;

/// <summary>
/// Collects the responses to one batch, in the order they arrive, and sends them as one array once the last call is
/// answered. A batch with no calls (only notifications or answers) sends nothing. Pooled.
/// </summary>
internal sealed class BatchReply
{
    private readonly Lock _lock = new();
    private readonly PooledBufferWriter _buffer = new();
    private RouterConnection? _caller;
    private ObjectStack<BatchReply>? _pool;
    private int _outstanding;
    private int _items;

    /// <summary>Starts a batch; the enumeration itself holds one count, released by <see cref="End"/>.</summary>
    public void Begin(RouterConnection caller, ObjectStack<BatchReply> pool)
    {
        _caller = caller;
        _pool = pool;
        _outstanding = 1;
        _items = 0;
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
            if (_items++ > 0)
            {
                _buffer.Write((byte)',');
            }

            _buffer.Write(answer[..start]);
            _buffer.Write(newId);
            _buffer.Write(answer[(start + length)..]);
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
        if (_items++ > 0)
        {
            _buffer.Write((byte)',');
        }

        _buffer.Write(response);
    }

    private void Finish()
    {
        var caller = _caller!;
        var pool = _pool!;
        if (_items > 0)
        {
            _buffer.Write((byte)']');
            caller.Send(OutboundMessage.TakeFrom(_buffer));
        }
        else
        {
            _buffer.Reset();
        }

        _caller = null;
        _pool = null;
        pool.Return(this);
    }
}
