using System.Text.Json;
using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

public static partial class JsonRpcMessageReader
{
    internal const string ElementNotAnObject = "A batch element must be a message object.";

    /// <summary>
    /// Yields the range of each element of a batch that <see cref="TryRead(ReadOnlySpan{byte}, out JsonRpcMessageInfo, out JsonRpcReadError)"/>
    /// accepted; read each element with <see cref="TryReadBatchElement(ReadOnlySpan{byte}, out JsonRpcMessageInfo, out JsonRpcReadError)"/>.
    /// Allocates nothing.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="batch"/> is not a JSON array.</exception>
    public static BatchEnumerator EnumerateBatch(ReadOnlySpan<byte> batch) => new(batch);

    /// <summary>
    /// Reads one element of a batch as <see cref="TryRead(ReadOnlySpan{byte}, out JsonRpcMessageInfo, out JsonRpcReadError)"/>
    /// does, except that an array is refused as an Invalid Request: batches do not nest. Allocates nothing.
    /// </summary>
    public static bool TryReadBatchElement(ReadOnlySpan<byte> element, out JsonRpcMessageInfo info, out JsonRpcReadError error)
        => TryReadBatchElement(element, JsonRpcReaderOptions.DefaultMaxDepth, out info, out error);

    /// <inheritdoc cref="TryReadBatchElement(ReadOnlySpan{byte}, out JsonRpcMessageInfo, out JsonRpcReadError)"/>
    /// <param name="element">The element's bytes.</param>
    /// <param name="maxDepth">The deepest nesting accepted, the element itself counting as 1 (1 to 4096).</param>
    /// <param name="info">What was read.</param>
    /// <param name="error">Why the element was refused.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxDepth"/> is out of range (never for any input).</exception>
    public static bool TryReadBatchElement(ReadOnlySpan<byte> element, int maxDepth, out JsonRpcMessageInfo info, out JsonRpcReadError error)
    {
        if (!TryRead(element, maxDepth, out info, out error))
        {
            return false;
        }

        if (info._kind == JsonRpcMessageKind.Batch)
        {
            info = default;
            error = new JsonRpcReadError(JsonRpcErrorCodes.InvalidRequest, ElementNotAnObject);
            return false;
        }

        return true;
    }

    /// <summary>Enumerates the elements of a batch as ranges of its bytes.</summary>
    public ref struct BatchEnumerator
    {
        private Utf8JsonReader _reader;
        private Range _current;

        internal BatchEnumerator(ReadOnlySpan<byte> batch)
        {
            _reader = new Utf8JsonReader(batch, new JsonReaderOptions { MaxDepth = JsonRpcReaderOptions.MaxDepthLimit });
            _current = default;
            if (!_reader.Read() || _reader.TokenType != JsonTokenType.StartArray)
            {
                throw new ArgumentException("The input is not a JSON array.", nameof(batch));
            }
        }

        /// <summary>The current element's bytes within the batch.</summary>
        public readonly Range Current => _current;

        /// <summary>This enumerator.</summary>
        public readonly BatchEnumerator GetEnumerator() => this;

        /// <summary>Moves to the next element.</summary>
        public bool MoveNext()
        {
            if (!_reader.Read() || _reader.TokenType == JsonTokenType.EndArray)
            {
                return false;
            }

            var start = (int)_reader.TokenStartIndex;
            _reader.Skip();
            _current = new Range(start, (int)_reader.BytesConsumed);
            return true;
        }
    }
}
