using System.Collections.Concurrent;
using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Client.Internal;
using JsonRpc.Protocol;
using JsonRpc.Serialization;

namespace JsonRpc.Client;

/// <summary>Serving async enumerables the StreamJsonRpc way, so that StreamJsonRpc callers (and this client) can pull them.</summary>
public sealed partial class JsonRpcClient
{
    // Values per answer to $/enumerator/next at most (as many as are ready at once, at least one).
    private const int MaxBatch = 64;

    private readonly ConcurrentDictionary<long, IGenerator> _generators = new();

    // How many _generators holds, read on every incoming message instead of ConcurrentDictionary.IsEmpty, which takes
    // every lock of the dictionary when it is empty (the usual case) and so made the read loops of a busy client contend.
    private int _generatorCount;
    private long _nextGenerator;

    /// <summary>
    /// Serves a method that returns an async enumerable, wire-compatible with StreamJsonRpc: the answer is
    /// <c>{"token": n}</c>, and the peer's <c>$/enumerator/next</c> gets the values that are ready (at least one, at
    /// most 64) with <c>"finished"</c>; the enumeration advances only as the peer pulls, so a consumer that stops
    /// pulling stops it. <c>$/enumerator/abort</c>, a lost connection or the end of the sequence disposes the enumerator.
    /// </summary>
    /// <param name="method">The method name.</param>
    /// <param name="handler">
    /// Makes the sequence from the call's params (a copy of their JSON, the handler's to keep). Its enumerator gets a
    /// token (an async iterator's <c>[EnumeratorCancellation]</c> parameter) that is cancelled when the peer aborts the
    /// stream or the connection is lost.
    /// </param>
    /// <param name="itemType">Metadata of the values' type.</param>
    /// <returns>This client.</returns>
    public JsonRpcClient AddStreamMethod<T>(string method, Func<RawJson, IAsyncEnumerable<T>> handler, JsonTypeInfo<T> itemType)
    {
        ArgumentNullException.ThrowIfNull(handler);
        ArgumentNullException.ThrowIfNull(itemType);
        return AddRawMethod(method, (@params, _) =>
        {
            var generator = new Generator<T>(handler(@params.Detach()), itemType);
            var token = Interlocked.Increment(ref _nextGenerator);
            _generators[token] = generator;
            Interlocked.Increment(ref _generatorCount);
            return new ValueTask<RawJson>(RawJson.FromUtf8(System.Text.Encoding.UTF8.GetBytes(
                string.Create(CultureInfo.InvariantCulture, $"{{\"token\":{token}}}"))));
        });
    }

    /// <summary><c>$/enumerator/next</c> (a request) or <c>$/enumerator/abort</c> for one of this client's generators; true when it was one.</summary>
    private bool TryServeGenerator(ClientConnection connection, ReadOnlySpan<byte> message, in JsonRpcMessageInfo info)
    {
        if (Volatile.Read(ref _generatorCount) == 0)
        {
            return false;
        }

        var method = message[info.Method];
        var next = method.SequenceEqual("$/enumerator/next"u8);
        if (!next && !method.SequenceEqual("$/enumerator/abort"u8))
        {
            return false;
        }

        var isRequest = info.Kind == JsonRpcMessageKind.Request;
        var idToken = isRequest ? message[info.IdToken] : default;
        if (!GeneratorToken.TryRead(info.HasParams ? message[info.Params] : default, out var token) || !_generators.TryGetValue(token, out var generator))
        {
            if (isRequest)
            {
                SendError(connection, idToken, -32001, "Unknown enumerator token");
            }

            return true;
        }

        if (!next)
        {
            if (_generators.TryRemove(token, out _))
            {
                Interlocked.Decrement(ref _generatorCount);
                _ = generator.DisposeAsync().AsTask();
            }

            if (isRequest)
            {
                _ = AnswerAsync(connection, idToken.ToArray(), static (writer, _) => { writer.WriteNull("result"u8); return new ValueTask<bool>(false); }, generator);
            }

            return true;
        }

        if (!isRequest)
        {
            return true;
        }

        if (!generator.TryBeginPull())
        {
            SendError(connection, idToken, JsonRpcErrorCodes.InvalidRequest, "A $/enumerator/next of this enumerable is already running.");
            return true;
        }

        _ = PullAsync(connection, idToken.ToArray(), token, generator);
        return true;
    }

    private async Task PullAsync(ClientConnection connection, byte[] idToken, long token, IGenerator generator)
    {
        await Task.Yield(); // off the read loop: the sequence may take its time
        var ended = true;
        try
        {
            ended = await AnswerAsync(connection, idToken, static async (writer, generator) =>
            {
                writer.WriteStartObject("result"u8);
                var finished = await generator.WriteNextAsync(writer, MaxBatch).ConfigureAwait(false);
                writer.WriteEndObject();

                // Free before the answer goes: the peer may send its next pull the moment it has this one.
                generator.EndPull();
                return finished;
            }, generator).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // The sequence failed: the peer gets the error, and the enumerable is over.
            SendError(connection, idToken, JsonRpcErrorCodes.ServerErrorRangeEnd, ex.Message);
        }
        finally
        {
            generator.EndPull();
            if (ended && _generators.TryRemove(token, out _))
            {
                Interlocked.Decrement(ref _generatorCount);
                await generator.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    // Writes {"jsonrpc":"2.0","id":…, <what write writes>} and sends it; returns what write returned.
    private static async Task<bool> AnswerAsync(ClientConnection connection, byte[] idToken, Func<Utf8JsonWriter, IGenerator, ValueTask<bool>> write, IGenerator generator)
    {
        var buffer = MessageBuffer.Rent();
        try
        {
            var writer = buffer.JsonWriter;
            writer.WriteStartObject();
            writer.WriteString("jsonrpc"u8, "2.0"u8);
            writer.WritePropertyName("id"u8);
            writer.WriteRawValue(idToken, skipInputValidation: true);
            var result = await write(writer, generator).ConfigureAwait(false);
            writer.WriteEndObject();
            writer.Flush();
            await connection.WriteAsync(buffer.WrittenMemory, CancellationToken.None).ConfigureAwait(false);
            return result;
        }
        finally
        {
            MessageBuffer.Return(buffer);
        }
    }

    /// <summary>At a lost connection: the enumerables it served are over.</summary>
    private void DisposeGenerators()
    {
        foreach (var token in _generators.Keys)
        {
            if (_generators.TryRemove(token, out var generator))
            {
                Interlocked.Decrement(ref _generatorCount);
                _ = generator.DisposeAsync().AsTask();
            }
        }
    }
}
