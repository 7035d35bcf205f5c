using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Client.Internal;

/// <summary>One async enumerable this client serves (StreamJsonRpc's protocol), pulled by the peer batch by batch.</summary>
internal interface IGenerator : IAsyncDisposable
{
    /// <summary>Claims the generator for one pull; false when a pull of it is already running.</summary>
    bool TryBeginPull();

    /// <summary>
    /// Writes <c>"values":[…],"finished":bool</c> members: at least one value unless the sequence ended, and then as many
    /// more as are ready at once, up to <paramref name="max"/>. Returns whether the sequence ended.
    /// </summary>
    ValueTask<bool> WriteNextAsync(Utf8JsonWriter writer, int max);

    void EndPull();
}

/// <inheritdoc cref="IGenerator"/>
internal sealed class Generator<T>(IAsyncEnumerable<T> values, JsonTypeInfo<T> itemType) : IGenerator
{
    private readonly CancellationTokenSource _stop = new();
    private IAsyncEnumerator<T>? _enumerator;
    private int _pulling;
    private int _disposed;

    public bool TryBeginPull() => Interlocked.Exchange(ref _pulling, 1) == 0;

    public void EndPull() => Volatile.Write(ref _pulling, 0);

    public async ValueTask<bool> WriteNextAsync(Utf8JsonWriter writer, int max)
    {
        var enumerator = _enumerator ??= values.GetAsyncEnumerator(_stop.Token);
        writer.WriteStartArray("values"u8);
        var finished = false;
        var count = 0;
        while (count < max)
        {
            var moving = TakePending() ?? enumerator.MoveNextAsync();
            if (count > 0 && !moving.IsCompleted)
            {
                // What is ready goes now; the value still to come goes with the next pull.
                _pending = moving;
                break;
            }

            if (!await moving.ConfigureAwait(false))
            {
                finished = true;
                break;
            }

            JsonSerializer.Serialize(writer, enumerator.Current, itemType);
            count++;
        }

        writer.WriteEndArray();
        writer.WriteBoolean("finished"u8, finished);
        return finished;
    }

    // A MoveNextAsync started by the previous pull and not awaited then.
    private ValueTask<bool>? _pending;

    private ValueTask<bool>? TakePending()
    {
        var pending = _pending;
        _pending = null;
        return pending;
    }

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        await _stop.CancelAsync().ConfigureAwait(false);
        if (_enumerator is { } enumerator)
        {
            if (TakePending() is { } pending)
            {
                try
                {
                    await pending.ConfigureAwait(false);
                }
                catch (OperationCanceledException)
                {
                    // Stopped, as asked.
                }
            }

            await enumerator.DisposeAsync().ConfigureAwait(false);
        }

        _stop.Dispose();
    }
}
