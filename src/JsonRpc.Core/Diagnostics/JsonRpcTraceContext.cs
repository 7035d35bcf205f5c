using System.Diagnostics;
using System.Text.Json;
using JsonRpc.Serialization;

namespace JsonRpc.Diagnostics;

/// <summary>Where a message carries its W3C trace context.</summary>
public enum JsonRpcTraceContextLocation
{
    /// <summary>It carries none.</summary>
    None,

    /// <summary>Top-level <c>traceparent</c> and <c>tracestate</c> members, beside <c>method</c> (StreamJsonRpc's way).</summary>
    TopLevel,

    /// <summary><c>params._meta.traceparent</c> and <c>tracestate</c> (the Model Context Protocol's way).</summary>
    ParamsMeta,
}

/// <summary>
/// The W3C trace context (<see href="https://www.w3.org/TR/trace-context/"/>) of a JSON-RPC request or notification,
/// found where users put it: top-level <c>traceparent</c>/<c>tracestate</c> members (StreamJsonRpc), else
/// <c>params._meta.traceparent</c>/<c>tracestate</c> (MCP). Read only when someone traces: it is a second pass over the
/// message's members.
/// </summary>
public readonly struct JsonRpcTraceContext
{
    /// <summary>The member name of the trace parent.</summary>
    public const string TraceParentName = "traceparent";

    /// <summary>The member name of the trace state.</summary>
    public const string TraceStateName = "tracestate";

    private JsonRpcTraceContext(JsonRpcTraceContextLocation location, Range traceParentToken, string? traceParent, string? traceState)
    {
        Location = location;
        TraceParentToken = traceParentToken;
        TraceParent = traceParent;
        TraceState = traceState;
    }

    /// <summary>Where the message carries it; <see cref="JsonRpcTraceContextLocation.None"/> when it does not.</summary>
    public JsonRpcTraceContextLocation Location { get; }

    /// <summary>The <c>traceparent</c> value's token in the message (its quotes included), to replace it in place.</summary>
    public Range TraceParentToken { get; }

    /// <summary>The <c>traceparent</c> as sent, or null.</summary>
    public string? TraceParent { get; }

    /// <summary>The <c>tracestate</c> as sent, or null.</summary>
    public string? TraceState { get; }

    /// <summary>
    /// The parent context it names, marked remote; false when there is none or its <c>traceparent</c> is not valid
    /// (then the span it would parent starts a trace of its own).
    /// </summary>
    public bool TryGetContext(out ActivityContext context)
    {
        context = default;
        return TraceParent is not null && ActivityContext.TryParse(TraceParent, TraceState, isRemote: true, out context);
    }

    /// <summary>
    /// Finds the trace context of <paramref name="message"/>, which <see cref="JsonRpcMessageReader"/> read into
    /// <paramref name="info"/> (a request or notification; not a batch). Never throws on what the reader accepted.
    /// </summary>
    public static JsonRpcTraceContext Find(ReadOnlySpan<byte> message, in JsonRpcMessageInfo info)
    {
        if (FindIn(message, 0, out var found))
        {
            return found;
        }

        if (info.HasParams)
        {
            var (offset, length) = info.Params.GetOffsetAndLength(message.Length);
            var @params = message.Slice(offset, length);
            if (@params[0] == (byte)'{' && FindMember(@params, "_meta"u8, out var meta) && FindIn(@params[meta], offset + meta.Start.Value, out found))
            {
                return new JsonRpcTraceContext(JsonRpcTraceContextLocation.ParamsMeta, found.TraceParentToken, found.TraceParent, found.TraceState);
            }
        }

        return default;
    }

    /// <summary>Looks for traceparent and tracestate among the members of the object <paramref name="json"/>.</summary>
    private static bool FindIn(ReadOnlySpan<byte> json, int offset, out JsonRpcTraceContext found)
    {
        found = default;
        var reader = new Utf8JsonReader(json);
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
        {
            return false;
        }

        string? parent = null, state = null;
        Range token = default;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var isParent = reader.ValueTextEquals("traceparent"u8);
            var isState = !isParent && reader.ValueTextEquals("tracestate"u8);
            reader.Read();
            if (reader.TokenType == JsonTokenType.String && (isParent || isState))
            {
                if (isParent)
                {
                    token = new Range(offset + (int)reader.TokenStartIndex, offset + (int)reader.BytesConsumed);
                    parent = reader.GetString();
                }
                else
                {
                    state = reader.GetString();
                }
            }
            else
            {
                reader.Skip();
            }
        }

        if (parent is null)
        {
            return false;
        }

        found = new JsonRpcTraceContext(JsonRpcTraceContextLocation.TopLevel, token, parent, state);
        return true;
    }

    /// <summary>The range of member <paramref name="name"/>'s value in the object <paramref name="json"/>, when it is an object.</summary>
    private static bool FindMember(ReadOnlySpan<byte> json, ReadOnlySpan<byte> name, out Range value)
    {
        value = default;
        var reader = new Utf8JsonReader(json);
        reader.Read();
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var match = reader.ValueTextEquals(name);
            reader.Read();
            var start = (int)reader.TokenStartIndex;
            var isObject = reader.TokenType == JsonTokenType.StartObject;
            reader.Skip();
            if (match && isObject)
            {
                value = new Range(start, (int)reader.BytesConsumed);
                return true;
            }
        }

        return false;
    }
}
