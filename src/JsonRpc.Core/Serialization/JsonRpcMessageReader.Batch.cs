using System.Text.Json;

namespace JsonRpc.Serialization;

public static partial class JsonRpcMessageReader
{
    /// <summary>
    /// Yields the range of each element of a batch that <see cref="TryRead(ReadOnlySpan{byte}, out JsonRpcMessageInfo, out JsonRpcReadError)"/>
    /// accepted; read each element with <c>TryRead(batch[range], …)</c>. Allocates nothing.
    /// </summary>
    public static BatchEnumerator EnumerateBatch(ReadOnlySpan<byte> batch) => new(batch);

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
