using System.Buffers;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Benchmarks.Baseline;

/// <summary>
/// A dispatcher built the old way on the baseline converter: each message becomes a <see cref="BaselineMessage"/>
/// through <see cref="JsonDocument"/> and a second deserialization, handlers bind their params from a
/// <see cref="JsonElement"/>, and each answer is a model object serialized with <see cref="JsonSerializer"/>.
/// </summary>
internal sealed class BaselineDispatcher
{
    private readonly Dictionary<string, Func<JsonElement?, JsonElement>> _methods = new(StringComparer.Ordinal);
    private readonly Utf8JsonWriter _writer = new(Stream.Null, Serialization.JsonRpcMessageWriter.WriterOptions);

    /// <summary>Adds a method taking two positional parameters.</summary>
    public BaselineDispatcher Add<T1, T2, TResult>(
        string method, Func<T1, T2, TResult> handler, JsonTypeInfo<T1> type1, JsonTypeInfo<T2> type2, JsonTypeInfo<TResult> result)
    {
        _methods.Add(method, parameters =>
        {
            if (parameters is not { ValueKind: JsonValueKind.Array } array || array.GetArrayLength() != 2)
            {
                throw new ArgumentException("Expected two positional params.");
            }

            var value = handler(array[0].Deserialize(type1)!, array[1].Deserialize(type2)!);
            return JsonSerializer.SerializeToElement(value, result);
        });
        return this;
    }

    /// <summary>Answers one message or batch into <paramref name="output"/>; false when there is nothing to answer.</summary>
    public bool Dispatch(ReadOnlyMemory<byte> message, IBufferWriter<byte> output)
    {
        _writer.Reset(output);
        var span = message.Span.TrimStart(" \t\r\n"u8);
        if (span.Length > 0 && span[0] == (byte)'[')
        {
            var requests = JsonSerializer.Deserialize(span, BaselineSerializer.RawTextArray) ?? [];
            var answers = new List<BaselineMessage>(requests.Length);
            foreach (var request in requests)
            {
                if (Answer(request) is { } answer)
                {
                    answers.Add(answer);
                }
            }

            if (answers.Count == 0)
            {
                return false;
            }

            JsonSerializer.Serialize(_writer, answers.ToArray(), BaselineSerializer.RawTextArray);
            return true;
        }

        if (Answer(JsonSerializer.Deserialize(span, BaselineSerializer.RawText)) is not { } single)
        {
            return false;
        }

        JsonSerializer.Serialize(_writer, single, BaselineSerializer.RawText);
        return true;
    }

    private BaselineMessage? Answer(BaselineMessage? message)
    {
        var (id, method, parameters) = message switch
        {
            BaselineRequest request => (request.Id, request.Method, request.Params),
            BaselineNotification notification => (default(BaselineRequestId?), notification.Method, notification.Params),
            _ => (default, null, null),
        };

        if (method is null)
        {
            return null; // responses are not the dispatcher's to answer
        }

        if (!_methods.TryGetValue(method, out var handler))
        {
            return id is { } missing ? Error(missing, -32601, "Method not found") : null;
        }

        try
        {
            var result = handler(parameters);
            return id is { } answered ? new BaselineResponse { Id = answered, Result = result } : null;
        }
        catch (ArgumentException)
        {
            return id is { } invalid ? Error(invalid, -32602, "Invalid params") : null;
        }
        catch (Exception)
        {
            return id is { } failed ? Error(failed, -32603, "Internal error") : null;
        }
    }

    private static BaselineError Error(BaselineRequestId id, int code, string message)
        => new() { Id = id, Error = new BaselineErrorDetail { Code = code, Message = message } };
}
