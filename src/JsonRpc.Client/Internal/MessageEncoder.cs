using System.Text.Json;
using JsonRpc.Serialization;

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
        if (trace?.Id is not null && trace.IdFormat == System.Diagnostics.ActivityIdFormat.W3C)
        {
            WriteTracedCall(buffer, id, method, @params, trace);
            return;
        }

        // The envelope by hand: the same bytes Utf8JsonWriter writes, without its token bookkeeping or, for a method
        // named before (see EncodedMethod), its transcoding and escaping of the name. Only the params go through it.
        var name = EncodedMethod(method, out var slot);
        var span = buffer.GetSpan(64 + (name?.Length ?? 0));
        var length = WriteHead(span, id);
        var member = "\"method\":"u8;
        member.CopyTo(span[length..]);
        length += member.Length;
        if (name is not null)
        {
            name.CopyTo(span[length..]);
            buffer.Advance(length + name.Length);
        }
        else
        {
            buffer.Advance(length);
            var start = buffer.WrittenCount;
            var writer = buffer.JsonWriter;
            writer.WriteStringValue(method);
            writer.Flush();
            if (slot >= 0)
            {
                Volatile.Write(ref Methods[slot], new MethodEntry(method, buffer.WrittenSpan[start..].ToArray()));
            }
        }

        WriteParamsAndEnd(buffer, @params);
    }

    /// <summary><c>{"jsonrpc":"2.0",</c> and, for a request, <c>"id":id,</c> (at most 43 bytes); returns the bytes written.</summary>
    private static int WriteHead(Span<byte> span, long id)
    {
        var head = "{\"jsonrpc\":\"2.0\","u8;
        head.CopyTo(span);
        var length = head.Length;
        if (id != 0)
        {
            var member = "\"id\":"u8;
            member.CopyTo(span[length..]);
            length += member.Length;
            id.TryFormat(span[length..], out var digits, default, System.Globalization.CultureInfo.InvariantCulture);
            length += digits;
            span[length++] = (byte)',';
        }

        return length;
    }

    /// <summary><c>,"params":…</c> unless the params are absent, then the closing brace.</summary>
    private static void WriteParamsAndEnd<TParams>(MessageBuffer buffer, in TParams @params)
        where TParams : struct, IParamsSource
    {
        if (!@params.IsAbsent)
        {
            var member = ",\"params\":"u8;
            member.CopyTo(buffer.GetSpan(member.Length));
            buffer.Advance(member.Length);
            var start = buffer.WrittenCount;
            var writer = buffer.JsonWriter;
            @params.WriteValue(writer);
            writer.Flush();
            WrapIfScalar(buffer, start);
        }

        buffer.GetSpan(1)[0] = (byte)'}';
        buffer.Advance(1);
    }

    /// <summary>A call that carries its W3C trace context (<c>traceparent</c>, <c>tracestate</c>) as top-level members.</summary>
    private static void WriteTracedCall<TParams>(MessageBuffer buffer, long id, string method, in TParams @params, System.Diagnostics.Activity trace)
        where TParams : struct, IParamsSource
    {
        var writer = buffer.JsonWriter;
        writer.WriteStartObject();
        writer.WriteString(JsonRpcName, Version);
        if (id != 0)
        {
            writer.WriteNumber(IdName, id);
        }

        writer.WriteString(TraceParentName, trace.Id);
        if (trace.TraceStateString is { Length: > 0 } traceState)
        {
            writer.WriteString(TraceStateName, traceState);
        }

        writer.WriteString(MethodName, method);
        writer.Flush();
        WriteParamsAndEnd(buffer, @params);
    }

    // Method names as JSON strings (quoted, escaped as the writer would), by the identity of the string: calls name a few
    // methods, nearly always through the same string instance (a literal, a generated proxy's constant), so a lookup is
    // one identity hash and a reference comparison. A name is kept (the bytes Utf8JsonWriter wrote for it, so that it is
    // escaped exactly as the writer does) the second time in a row its slot sees it, so that a name built per call costs
    // one small entry, not a copy each time; until then the writer writes it.
    private static readonly MethodEntry?[] Methods = new MethodEntry?[64];

    private sealed class MethodEntry(string name, byte[]? encoded)
    {
        public readonly string Name = name;
        public readonly byte[]? Encoded = encoded;
    }

    /// <summary>
    /// The method name as a JSON string; null the first two times its slot sees it, with <paramref name="keepIn"/> the
    /// slot to keep the writer's bytes in the second time (else -1).
    /// </summary>
    private static byte[]? EncodedMethod(string method, out int keepIn)
    {
        ArgumentNullException.ThrowIfNull(method);
        var index = System.Runtime.CompilerServices.RuntimeHelpers.GetHashCode(method) & (Methods.Length - 1);
        var entry = Volatile.Read(ref Methods[index]);
        keepIn = -1;
        if (entry is null || !ReferenceEquals(entry.Name, method))
        {
            Volatile.Write(ref Methods[index], new MethodEntry(method, null));
            return null;
        }

        if (entry.Encoded is null)
        {
            keepIn = index;
        }

        return entry.Encoded;
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
