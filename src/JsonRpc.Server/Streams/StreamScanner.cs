using System.Text.Json;
using JsonRpc.Server.RouterProtocol;

namespace JsonRpc.Server.Streams;

/// <summary>
/// Finds what streams and progress hang on in messages the reader has already checked: progress tokens in a call's
/// params, StreamJsonRpc's enumerable objects (<c>{"token": n, "values": […]}</c>) in params and results, and the
/// token of <c>$/progress</c>, <c>notifications/progress</c>, <c>$/enumerator/next</c> and <c>$/enumerator/abort</c>.
/// The input is known to be well-formed JSON, so nothing here can fail on it; it only reads.
/// </summary>
internal static class StreamScanner
{
    /// <summary>Integer arguments kept per call as possible StreamJsonRpc progress tokens; named tokens are always kept.</summary>
    public const int MaxIntegerCandidates = 16;

    /// <summary>Enumerables one message may carry; past it the message is refused (and the search stops at one more).</summary>
    public const int MaxEnumerablesPerMessage = 256;

    // Deeper nesting is not searched for enumerables (StreamJsonRpc puts them in arguments and results, or one level in).
    private const int MaxEnumerableDepth = 32;

    /// <summary>
    /// Whether <paramref name="json"/> may hold an enumerable: it has the member name <c>"token"</c> as StreamJsonRpc
    /// writes it (unescaped). A vectorized search, so a call or answer without one pays almost nothing.
    /// </summary>
    public static bool MayHoldEnumerable(ReadOnlySpan<byte> json) => json.IndexOf("\"token\""u8) >= 0;

    /// <summary>
    /// Adds to <paramref name="into"/> the progress tokens a call's params may carry: <c>workDoneToken</c> and
    /// <c>partialResultToken</c> (LSP) and <c>_meta.progressToken</c> (MCP) as named tokens, and every integer given
    /// by position or by name at the top level (StreamJsonRpc writes an <c>IProgress&lt;T&gt;</c> argument as one),
    /// at most <see cref="MaxIntegerCandidates"/> of those.
    /// </summary>
    public static void CollectProgress(ReadOnlySpan<byte> @params, List<ProgressToken> into)
    {
        if (@params.IsEmpty)
        {
            return;
        }

        var reader = new Utf8JsonReader(@params);
        reader.Read();
        var integers = 0;
        if (reader.TokenType == JsonTokenType.StartArray)
        {
            var position = 0L;
            while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
            {
                AddInteger(ref reader, into, ref integers, position++, default);
            }

            return;
        }

        if (reader.TokenType != JsonTokenType.StartObject)
        {
            return;
        }

        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            if (reader.ValueTextEquals("workDoneToken"u8) || reader.ValueTextEquals("partialResultToken"u8))
            {
                reader.Read();
                if (TryReadToken(ref reader, named: true, out var token))
                {
                    into.Add(token);
                }
                else
                {
                    reader.Skip();
                }
            }
            else if (reader.ValueTextEquals("_meta"u8))
            {
                reader.Read();
                CollectMeta(ref reader, into);
            }
            else
            {
                var name = reader.ValueSpan; // a slice of params: still valid after the reader moves on
                reader.Read();
                AddInteger(ref reader, into, ref integers, ProgressToken.NoSlot, name);
            }
        }
    }

    // On a value: adds it when it is an integer (with which argument it is: its position, or the slot of its name,
    // hashed only then; and where it lies), skips it when it is a container.
    private static void AddInteger(ref Utf8JsonReader reader, List<ProgressToken> into, ref int integers, long position, ReadOnlySpan<byte> name)
    {
        if (reader.TokenType == JsonTokenType.Number)
        {
            if (integers < MaxIntegerCandidates && reader.TryGetInt64(out var number))
            {
                integers++;
                into.Add(new ProgressToken(number, null, named: false)
                {
                    Slot = name.IsEmpty ? position : ProgressToken.NameSlot(name),
                    Value = TokenRange(ref reader),
                });
            }
        }
        else
        {
            reader.Skip();
        }
    }

    // On the value of "_meta": adds its "progressToken".
    private static void CollectMeta(ref Utf8JsonReader reader, List<ProgressToken> into)
    {
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            reader.Skip();
            return;
        }

        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var isToken = reader.ValueTextEquals("progressToken"u8);
            reader.Read();
            if (isToken && TryReadToken(ref reader, named: true, out var token))
            {
                into.Add(token);
            }
            else
            {
                reader.Skip();
            }
        }
    }

    /// <summary>
    /// Reads a token value (an integer, a string, or another number by its text). A number that is not an integer is
    /// kept as its text, marked so that it never equals a string.
    /// </summary>
    private static bool TryReadToken(ref Utf8JsonReader reader, bool named, out ProgressToken token)
    {
        switch (reader.TokenType)
        {
            case JsonTokenType.Number when reader.TryGetInt64(out var number):
                token = new ProgressToken(number, null, named);
                return true;
            case JsonTokenType.Number:
                token = new ProgressToken(0, "\u0001" + System.Text.Encoding.UTF8.GetString(reader.ValueSpan), named);
                return true;
            case JsonTokenType.String:
                token = new ProgressToken(0, reader.GetString(), named);
                return true;
            default:
                token = default;
                return false;
        }
    }

    /// <summary>
    /// The token of a progress notification: <c>$/progress</c> takes <c>[token, value]</c> (StreamJsonRpc) or
    /// <c>{"token": …, "value": …}</c> (LSP, and StreamJsonRpc with named arguments); <c>notifications/progress</c>
    /// (MCP) takes <c>{"progressToken": …, …}</c>.
    /// </summary>
    public static bool TryReadProgressToken(ReadOnlySpan<byte> @params, bool mcp, out ProgressToken token, out Range range)
    {
        token = default;
        range = default;
        var reader = new Utf8JsonReader(@params);
        if (!ParamReader.Find(ref reader, @params, mcp ? "progressToken"u8 : "token"u8, mcp ? -1 : 0)
            || !TryReadToken(ref reader, named: false, out token))
        {
            return false;
        }

        range = TokenRange(ref reader);
        return true;
    }

    // Where the token the reader is on lies in its input.
    private static Range TokenRange(ref Utf8JsonReader reader) => new((int)reader.TokenStartIndex, (int)reader.BytesConsumed);

    /// <summary>
    /// The token of <c>$/enumerator/next</c> or <c>$/enumerator/abort</c>, <c>[token]</c> or <c>{"token": token}</c>,
    /// when it is an integer (the router hands out integers), with where it is in <paramref name="params"/>.
    /// </summary>
    public static bool TryReadEnumeratorToken(ReadOnlySpan<byte> @params, out long token, out Range range)
    {
        token = 0;
        range = default;
        var reader = new Utf8JsonReader(@params);
        if (!ParamReader.Find(ref reader, @params, "token"u8, 0) || reader.TokenType != JsonTokenType.Number || !reader.TryGetInt64(out token))
        {
            return false;
        }

        range = TokenRange(ref reader);
        return true;
    }

    /// <summary>Whether the result of <c>$/enumerator/next</c> says the enumeration is over: <c>{"finished": true}</c>.</summary>
    public static bool IsFinished(ReadOnlySpan<byte> result)
    {
        // StreamJsonRpc writes "finished" last, after the values: read it off the end without reading the values. What
        // stands right before the outermost closing brace is a member of the outermost object (a string would end in a
        // quote, a nested value in a bracket), so this is exact; any other layout is read in full.
        if (result.EndsWith(",\"finished\":true}"u8))
        {
            return true;
        }

        if (result.EndsWith(",\"finished\":false}"u8))
        {
            return false;
        }

        var reader = new Utf8JsonReader(result);
        return ParamReader.Find(ref reader, result, "finished"u8, -1) && reader.TokenType == JsonTokenType.True;
    }

    /// <summary>
    /// Adds to <paramref name="into"/> where the token of each enumerable object in <paramref name="json"/> is: an object
    /// whose members are <c>"token"</c>, an integer, and at most <c>"values"</c>, an array, as StreamJsonRpc writes an
    /// <c>IAsyncEnumerable&lt;T&gt;</c> (one that was sent whole, with no token, needs nothing). The outermost value counts
    /// only with <paramref name="includeRoot"/> (a result may be one; a params object is the argument list).
    /// </summary>
    public static void FindEnumerables(ReadOnlySpan<byte> json, bool includeRoot, List<Range> into) => FindEnumerables(json, includeRoot, into, out _);

    /// <inheritdoc cref="FindEnumerables(ReadOnlySpan{byte}, bool, List{Range})"/>
    /// <param name="json">The params or the result.</param>
    /// <param name="includeRoot">Whether the outermost value may be an enumerable.</param>
    /// <param name="into">Receives the tokens' ranges.</param>
    /// <param name="rootPrefetched">
    /// The outermost value is an enumerable that came with values (a StreamJsonRpc generator that prefetches sends its
    /// first batch with the token): its token is then the last range added. Found in the same pass, so that the
    /// answer is read once.
    /// </param>
    public static void FindEnumerables(ReadOnlySpan<byte> json, bool includeRoot, List<Range> into, out bool rootPrefetched)
    {
        rootPrefetched = false;
        var reader = new Utf8JsonReader(json);
        Span<Frame> frames = stackalloc Frame[MaxEnumerableDepth];
        var depth = -1; // index of the innermost open frame
        while (reader.Read())
        {
            switch (reader.TokenType)
            {
                case JsonTokenType.StartObject:
                case JsonTokenType.StartArray:
                    var isValues = false;
                    if (depth >= 0)
                    {
                        NoteValue(frames, depth);
                        ref var parent = ref frames[depth];
                        isValues = parent.Pending == Member.Values && reader.TokenType == JsonTokenType.StartArray;
                        if (parent.Pending == Member.Token || (parent.Pending == Member.Values && !isValues))
                        {
                            parent.Clean = false;
                        }
                    }

                    if (depth + 1 == MaxEnumerableDepth)
                    {
                        reader.Skip();
                        break;
                    }

                    frames[++depth] = new Frame { Clean = reader.TokenType == JsonTokenType.StartObject && (includeRoot || depth > 0), TokenStart = -1, IsValues = isValues };
                    break;
                case JsonTokenType.EndObject:
                    if (frames[depth] is { Clean: true, TokenStart: >= 0 } done)
                    {
                        into.Add(new Range(done.TokenStart, done.TokenEnd));
                        if (into.Count > MaxEnumerablesPerMessage)
                        {
                            return;
                        }

                        rootPrefetched = depth == 0 && done.HasValues;
                    }

                    depth--;
                    break;
                case JsonTokenType.EndArray:
                    depth--;
                    break;
                case JsonTokenType.PropertyName:
                {
                    ref var frame = ref frames[depth];
                    if (reader.ValueTextEquals("token"u8))
                    {
                        frame.Pending = Member.Token;
                    }
                    else if (reader.ValueTextEquals("values"u8))
                    {
                        frame.Pending = Member.Values;
                    }
                    else
                    {
                        frame.Pending = Member.Other;
                        frame.Clean = false;
                    }

                    break;
                }

                default:
                    if (depth >= 0)
                    {
                        NoteValue(frames, depth);
                        ref var frame = ref frames[depth];
                        if (frame.Pending == Member.Token && reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out _))
                        {
                            frame.TokenStart = (int)reader.TokenStartIndex;
                            frame.TokenEnd = (int)reader.BytesConsumed;
                        }
                        else if (frame.Pending is Member.Token or Member.Values && reader.TokenType != JsonTokenType.Null)
                        {
                            frame.Clean = false;
                        }
                    }

                    break;
            }
        }
    }

    // A value inside the frame at depth: when that frame is a "values" array, the enumerable it belongs to has values.
    private static void NoteValue(Span<Frame> frames, int depth)
    {
        if (frames[depth].IsValues)
        {
            frames[depth - 1].HasValues = true;
        }
    }

    private enum Member : byte
    {
        None,
        Token,
        Values,
        Other,
    }

    private struct Frame
    {
        public bool Clean;
        public Member Pending;
        public int TokenStart;
        public int TokenEnd;

        /// <summary>This array is the <c>"values"</c> of the object one level out.</summary>
        public bool IsValues;

        /// <summary>This object's <c>"values"</c> array has at least one element.</summary>
        public bool HasValues;
    }
}
