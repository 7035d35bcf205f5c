using System.Text.Json.Serialization;
using JsonRpc.Serialization;

namespace JsonRpc.Protocol;

/// <summary>
/// A JSON array of messages. A batch that was read may hold <see cref="JsonRpcInvalidMessage"/> elements: each
/// gets its own error answer, as the spec's examples show.
/// </summary>
[JsonConverter(typeof(JsonRpcMessageConverter<JsonRpcBatch>))]
public sealed class JsonRpcBatch : JsonRpcMessage
{
    private readonly JsonRpcMessage[] _messages;

    /// <summary>Creates a batch.</summary>
    /// <exception cref="ArgumentException">The batch is empty, or holds a batch.</exception>
    public JsonRpcBatch(IEnumerable<JsonRpcMessage> messages)
    {
        ArgumentNullException.ThrowIfNull(messages);
        _messages = messages.ToArray();
        if (_messages.Length == 0)
        {
            throw new ArgumentException("A batch must hold at least one message.", nameof(messages));
        }

        foreach (var message in _messages)
        {
            if (message is null or JsonRpcBatch)
            {
                throw new ArgumentException("A batch holds messages, not null or nested batches.", nameof(messages));
            }
        }
    }

    internal JsonRpcBatch(JsonRpcMessage[] messages, bool _) => _messages = messages;

    /// <inheritdoc/>
    public override JsonRpcMessageKind Kind => JsonRpcMessageKind.Batch;

    /// <summary>The messages, in order.</summary>
    public IReadOnlyList<JsonRpcMessage> Messages => _messages;

    /// <summary>The messages, for loops that must not allocate an enumerator.</summary>
    internal ReadOnlySpan<JsonRpcMessage> Span => _messages;
}
