using System.Buffers;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Serialization;

namespace JsonRpc.Dispatch.Streams;

/// <summary>One async enumerable the dispatcher serves to a peer, pulled batch by batch (StreamJsonRpc's protocol).</summary>
internal interface IServedEnumerator
{
    /// <summary>Claims the enumerator for one pull; false while another pull of it runs.</summary>
    bool TryBeginPull();

    void EndPull();

    /// <summary>
    /// Writes a JSON array of the next values: at least <paramref name="min"/> (fewer only when the sequence ends),
    /// then as many more as are ready at once, up to <paramref name="max"/>. Returns whether the sequence ended.
    /// </summary>
    ValueTask<bool> WriteValuesAsync(IBufferWriter<byte> output, int min, int max);

    /// <summary>Stops the sequence: cancels its token and disposes its enumerator (once; later calls do nothing).</summary>
    ValueTask DisposeAsync();
}

/// <inheritdoc cref="IServedEnumerator"/>
internal sealed class ServedEnumerator<T>(IAsyncEnumerable<T> source, JsonTypeInfo<T> itemType) : IServedEnumerator
{
    private readonly Lock _lock = new();
    private readonly CancellationTokenSource _stop = new();
    private IAsyncEnumerator<T>? _enumerator;
    private ValueTask<bool>? _ahead; // a MoveNextAsync a pull started and left for the next one, as it was not ready
    private System.Runtime.ExceptionServices.ExceptionDispatchInfo? _failure; // the sequence failed after values of the last pull
    private bool _pulling;
    private bool _disposing;
    private bool _disposed;

    public bool TryBeginPull()
    {
        lock (_lock)
        {
            if (_pulling || _disposing)
            {
                return false;
            }

            _pulling = true;
            return true;
        }
    }

    public void EndPull()
    {
        bool disposeNow;
        lock (_lock)
        {
            _pulling = false;
            disposeNow = _disposing && !_disposed;
            _disposed |= disposeNow;
        }

        if (disposeNow)
        {
            _ = DisposeCoreAsync().AsTask();
        }
    }

    public async ValueTask<bool> WriteValuesAsync(IBufferWriter<byte> output, int min, int max)
    {
        _failure?.Throw();
        var enumerator = _enumerator ??= source.GetAsyncEnumerator(_stop.Token);
        using var writer = new Utf8JsonWriter(output, JsonRpcMessageWriter.WriterOptions);
        writer.WriteStartArray();
        var count = 0;
        var finished = false;
        while (count < max)
        {
            var moving = _ahead ?? enumerator.MoveNextAsync();
            _ahead = null;
            if (count >= min && !moving.IsCompleted)
            {
                _ahead = moving;
                break;
            }

            bool moved;
            try
            {
                moved = await moving.ConfigureAwait(false);
            }
            catch (Exception ex) when (count > 0)
            {
                // The values already taken go now; the failure answers the next pull.
                _failure = System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(ex);
                break;
            }

            if (!moved)
            {
                finished = true;
                break;
            }

            JsonSerializer.Serialize(writer, enumerator.Current, itemType);
            count++;
        }

        writer.WriteEndArray();
        writer.Flush();
        return finished;
    }

    /// <summary>Cancels the sequence's token now; the enumerator is disposed now, or when the pull that runs ends.</summary>
    public ValueTask DisposeAsync()
    {
        bool disposeNow;
        lock (_lock)
        {
            if (_disposing)
            {
                return default;
            }

            _disposing = true;
            disposeNow = !_pulling;
            _disposed = disposeNow;
        }

        try
        {
            _stop.Cancel();
        }
        catch (AggregateException)
        {
            // The sequence's own cancellation callback threw: it is being stopped either way.
        }

        return disposeNow ? DisposeCoreAsync() : default;
    }

    private async ValueTask DisposeCoreAsync()
    {
        try
        {
            if (_ahead is { } ahead)
            {
                _ahead = null;
                await ahead.ConfigureAwait(false);
            }
        }
        catch (Exception)
        {
            // Stopped as asked, or failed on its way out: nobody waits for its values any more.
        }

        try
        {
            if (_enumerator is { } enumerator)
            {
                await enumerator.DisposeAsync().ConfigureAwait(false);
            }
        }
        catch (Exception)
        {
            // A sequence that fails while disposed has nobody left to tell.
        }
        finally
        {
            _stop.Dispose();
        }
    }
}
