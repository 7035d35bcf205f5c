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

    /// <summary>
    /// Reads every element of the array the reader is on as a message, leaving the reader on its EndArray; returns how
    /// many elements it has. Offsets in each element's info are the reader's, so relative to the whole batch.
    /// </summary>
    private static int ReadBatchElements(ref Utf8JsonReader reader, scoped ref JsonScanner scanner, ref BatchElements elements)
    {
        var count = 0;
        while (reader.Read())
        {
            if (reader.TokenType == JsonTokenType.EndArray)
            {
                return count;
            }

            count++;
            var info = default(JsonRpcMessageInfo);
            string? invalid;
            if (reader.TokenType == JsonTokenType.StartObject)
            {
                invalid = ReadMessageObject(ref reader, ref scanner, ref info);
            }
            else
            {
                scanner.ScanValue(ref reader);
                info._kind = JsonRpcMessageKind.Invalid;
                invalid = ElementNotAnObject;
            }

            elements.Add(in info, invalid);
        }

        scanner.ParseViolation ??= "The JSON text ends inside a value.";
        return count;
    }

    /// <summary>
    /// Where a batch's elements are read to, in the one pass over the batch: each element's info (offsets relative to the
    /// batch) and why it is invalid, or null. Collects only when made with <see cref="Collecting"/>; a default instance
    /// ignores elements. Rents its array from the pool: call <see cref="Dispose"/>.
    /// </summary>
    internal struct BatchElements : IDisposable
    {
        private Element[]? _items;
        private int _count;
        private bool _collecting;

        public static BatchElements Collecting() => new() { _collecting = true };

        public readonly bool IsCollecting => _collecting;

        public readonly int Count => _count;

        public readonly ref readonly Element this[int index] => ref _items![index];

        public void Add(in JsonRpcMessageInfo info, string? invalid)
        {
            if (_items is null || _count == _items.Length)
            {
                var bigger = System.Buffers.ArrayPool<Element>.Shared.Rent(Math.Max(16, _count * 2));
                if (_items is not null)
                {
                    _items.AsSpan(0, _count).CopyTo(bigger);
                    Return(_items, _count);
                }

                _items = bigger;
            }

            _items[_count++] = new Element(info, invalid);
        }

        public void Clear()
        {
            if (_items is not null)
            {
                _items.AsSpan(0, _count).Clear();
            }

            _count = 0;
        }

        public void Dispose()
        {
            if (_items is not null)
            {
                Return(_items, _count);
                _items = null;
            }

            _count = 0;
        }

        private static void Return(Element[] items, int count)
        {
            items.AsSpan(0, count).Clear(); // drop the strings
            System.Buffers.ArrayPool<Element>.Shared.Return(items);
        }

        /// <summary>One element: what was read, and why it is not a valid message (null when it is).</summary>
        internal readonly record struct Element(JsonRpcMessageInfo Info, string? Invalid);
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
