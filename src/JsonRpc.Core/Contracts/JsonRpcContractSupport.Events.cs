using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Buffers;
using JsonRpc.Dispatch;
using JsonRpc.Protocol;

namespace JsonRpc.Contracts;

// Events as notifications, on StreamJsonRpc's wire: an event raised on a served implementation is the notification
// named after the event with params [args] ([{}] for a plain EventHandler, whose EventArgs serializes so).
public static partial class JsonRpcContractSupport
{
    private static readonly Action NoEvents = static () => { };

    /// <summary>The sender of the events of targets added to <paramref name="dispatcher"/>: every connection it serves.</summary>
    public static JsonRpcEventSender EventSender(JsonRpcDispatcher dispatcher)
    {
        ArgumentNullException.ThrowIfNull(dispatcher);
        return dispatcher.Peers;
    }

    /// <summary>Sends an <see cref="EventHandler{TEventArgs}"/> event: params <c>[args]</c>. A failure to serialize goes to <see cref="JsonRpcEventSender.OnFailed"/>.</summary>
    public static void SendEvent<T>(JsonRpcEventSender sender, string eventName, T args, JsonTypeInfo<T> argsType)
    {
        ArgumentNullException.ThrowIfNull(sender);
        ArgumentNullException.ThrowIfNull(argsType);
        using var buffer = new PooledBufferWriter();
        try
        {
            using var writer = new Utf8JsonWriter(buffer);
            writer.WriteStartArray();
            JsonSerializer.Serialize(writer, args, argsType);
            writer.WriteEndArray();
        }
        catch (Exception ex) when (ex is JsonException or NotSupportedException or InvalidOperationException)
        {
            sender.OnFailed(eventName, ex);
            return;
        }

        sender.Send(eventName, buffer.WrittenSpan);
    }

    /// <summary>Sends an <see cref="EventHandler"/> event: params <c>[{}]</c>, the empty <see cref="EventArgs"/> StreamJsonRpc sends.</summary>
    public static void SendEvent(JsonRpcEventSender sender, string eventName)
    {
        ArgumentNullException.ThrowIfNull(sender);
        sender.Send(eventName, "[{}]"u8);
    }

    /// <summary>
    /// The args of an <see cref="EventHandler{TEventArgs}"/> event's notification: params <c>[args]</c> as
    /// StreamJsonRpc sends them, or <c>{"args": …}</c> by name.
    /// </summary>
    /// <exception cref="JsonException">The params are neither.</exception>
    public static T ReadEventArgs<T>(RawJson @params, JsonTypeInfo<T> argsType, string eventName)
    {
        ArgumentNullException.ThrowIfNull(argsType);
        var reader = new Utf8JsonReader(@params.Span);
        if (reader.Read())
        {
            if (reader.TokenType == JsonTokenType.StartArray && reader.Read() && reader.TokenType != JsonTokenType.EndArray)
            {
                return JsonSerializer.Deserialize(ref reader, argsType)!;
            }

            if (reader.TokenType == JsonTokenType.StartObject)
            {
                while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
                {
                    var match = reader.ValueTextEquals("args"u8);
                    reader.Read();
                    if (match)
                    {
                        return JsonSerializer.Deserialize(ref reader, argsType)!;
                    }

                    reader.Skip();
                }
            }
        }

        throw ParamsMismatch(eventName, "an event's params must be [args] or {\"args\": …}");
    }

    /// <summary>What undoes a target's registration: <paramref name="remove"/> once, whoever calls it first.</summary>
    public static IDisposable Registration(Action? remove) => new OnceDisposable(remove ?? NoEvents);

    private sealed class OnceDisposable(Action remove) : IDisposable
    {
        private Action? _remove = remove;

        public void Dispose() => Interlocked.Exchange(ref _remove, null)?.Invoke();
    }
}
