using System.Text.Json;

namespace JsonRpc.Client.Internal;

/// <summary>Writes the client's requests and notifications into a <see cref="MessageBuffer"/>.</summary>
internal static class MessageEncoder
{
    private static readonly JsonEncodedText JsonRpcName = JsonEncodedText.Encode("jsonrpc");
    private static readonly JsonEncodedText Version = JsonEncodedText.Encode("2.0");
    private static readonly JsonEncodedText IdName = JsonEncodedText.Encode("id");
    private static readonly JsonEncodedText MethodName = JsonEncodedText.Encode("method");
    private static readonly JsonEncodedText ParamsName = JsonEncodedText.Encode("params");
    private static readonly JsonEncodedText ErrorName = JsonEncodedText.Encode("error");
    private static readonly JsonEncodedText CodeName = JsonEncodedText.Encode("code");
    private static readonly JsonEncodedText MessageName = JsonEncodedText.Encode("message");

    private static readonly JsonEncodedText TraceParentName = JsonEncodedText.Encode("traceparent");
    private static readonly JsonEncodedText TraceStateName = JsonEncodedText.Encode("tracestate");

    /// <summary>
    /// Appends <c>{"jsonrpc":"2.0","id":id,"method":…,"params":…}</c>; id 0 writes a notification. With
    /// <paramref name="trace"/>, its W3C context goes as top-level <c>traceparent</c> and <c>tracestate</c> members
    /// (StreamJsonRpc's place for them, which the router and the dispatcher read too).
    /// </summary>
    public static void WriteCall<TParams>(MessageBuffer buffer, long id, string method, in TParams @params, System.Diagnostics.Activity? trace = null)
        where TParams : struct, IParamsSource
    {
        var writer = buffer.JsonWriter;
        writer.WriteStartObject();
        writer.WriteString(JsonRpcName, Version);
        if (id != 0)
        {
            writer.WriteNumber(IdName, id);
        }

        if (trace?.Id is { } traceParent && trace.IdFormat == System.Diagnostics.ActivityIdFormat.W3C)
        {
            writer.WriteString(TraceParentName, traceParent);
            if (trace.TraceStateString is { Length: > 0 } traceState)
            {
                writer.WriteString(TraceStateName, traceState);
            }
        }

        writer.WriteString(MethodName, method);
        if (!@params.IsAbsent)
        {
            writer.WritePropertyName(ParamsName);
            writer.Flush();
            var start = buffer.WrittenCount;
            @params.WriteValue(writer);
            writer.Flush();
            WrapIfScalar(buffer, start);
        }

        writer.WriteEndObject();
        writer.Flush();
    }

    /// <summary>
    /// Appends an error answer; <paramref name="idToken"/> is the raw id token of the request (empty for <c>null</c>).
    /// </summary>
    public static void WriteError(MessageBuffer buffer, ReadOnlySpan<byte> idToken, int code, string message)
    {
        var writer = buffer.JsonWriter;
        writer.WriteStartObject();
        writer.WriteString(JsonRpcName, Version);
        writer.WritePropertyName(IdName);
        if (idToken.IsEmpty)
        {
            writer.WriteNullValue();
        }
        else
        {
            writer.WriteRawValue(idToken, skipInputValidation: true);
        }

        writer.WriteStartObject(ErrorName);
        writer.WriteNumber(CodeName, code);
        writer.WriteString(MessageName, message);
        writer.WriteEndObject();
        writer.WriteEndObject();
        writer.Flush();
    }

    /// <summary>
    /// JSON-RPC params must be an object or an array: any other value (a number, a string, null) becomes the one
    /// positional argument, <c>[value]</c>.
    /// </summary>
    private static void WrapIfScalar(MessageBuffer buffer, int start)
    {
        var end = buffer.WrittenCount;
        var first = start;
        while (first < end && buffer[first] is (byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n')
        {
            first++;
        }

        if (first == end)
        {
            throw new ArgumentException("The params wrote no JSON value.", "params");
        }

        if (buffer[first] is (byte)'{' or (byte)'[')
        {
            return;
        }

        buffer.Insert(first, (byte)'[');
        buffer.GetSpan(1)[0] = (byte)']';
        buffer.Advance(1);
    }
}
