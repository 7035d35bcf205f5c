namespace JsonRpc.Core.Tests;

/// <summary>
/// The strict scan reads the first tokens of a value through the caller's reader and the rest through a local copy
/// that it writes back. These put every check on both sides of that switch, in params, results and error data, and
/// make sure the reader ends where it should (the id after a big value is still read, on every read path).
/// </summary>
public class ScanBoundaryTests
{
    private const int Parse = JsonRpcErrorCodes.ParseError;
    private const int Invalid = JsonRpcErrorCodes.InvalidRequest;

    public static TheoryData<int> Positions => new() { 0, 1, 5, 7, 8, 9, 14, 15, 16, 17, 30, 100 };

    /// <summary>A params array of <paramref name="before"/> numbers, then <paramref name="inner"/>, then three more.</summary>
    private static string Message(int before, string inner, string member = "params")
    {
        var values = string.Join(",", Enumerable.Range(0, before).Select(i => i.ToString(System.Globalization.CultureInfo.InvariantCulture)).Append(inner).Append("1,2,3"));
        return member == "data"
            ? $$"""{"jsonrpc":"2.0","error":{"code":1,"message":"m","data":[{{values}}]},"id":"x7"}"""
            : member == "result"
                ? $$"""{"jsonrpc":"2.0","result":[{{values}}],"id":"x7"}"""
                : $$"""{"jsonrpc":"2.0","method":"m","params":[{{values}}],"id":"x7"}""";
    }

    [Theory]
    [MemberData(nameof(Positions))]
    public void DuplicateName_AnywhereInABigValue_IsInvalidRequestCarryingTheId(int position)
    {
        foreach (var member in new[] { "params", "result", "data" })
        {
            Refusal.Assert(Message(position, """{"a":1,"b":{"c":[true]},"a":2}""", member), Invalid, new RequestId("x7"));
        }
    }

    [Theory]
    [MemberData(nameof(Positions))]
    public void DuplicateName_InABigObject_IsFoundAfterTheHashTableTakesOver(int position)
    {
        var members = string.Join(",", Enumerable.Range(0, 20).Select(i => $"\"k{i}\":{i}"));
        Refusal.Assert(Message(position, $$"""{{{members}},"k{{position % 20}}":0}"""), Invalid, new RequestId("x7"));
    }

    /// <summary>
    /// Names of one length with the same first and last byte share the scanner's fingerprint bit, so each one after the
    /// first is told apart only by comparing names: distinct ones must pass and a repeat must not, escaped or not, on
    /// either side of the switch to the hash table.
    /// </summary>
    [Theory]
    [MemberData(nameof(Positions))]
    public void NamesSharingAFingerprint_AreComparedInFull(int position)
    {
        foreach (var count in new[] { 2, 7, 8, 9, 12 })
        {
            var names = Enumerable.Range(0, count).Select(i => $"\"a{(char)('A' + i)}b\":{i}").ToList();
            var distinct = $$"""{{{string.Join(",", names)}},"a\u005ab":0,"\u0061Yb":1}""";
            var utf8 = Encoding.UTF8.GetBytes(Message(position, distinct));
            foreach (var path in MessageReading.AllPaths)
            {
                Assert.Equal("m", Assert.IsType<JsonRpcRequest>(MessageReading.Read(path, utf8)).Method);
            }

            foreach (var repeat in new[] { "aAb", $"a{(char)('A' + count - 1)}b", "a\\u0041b", "\\u0061Ab" })
            {
                Refusal.Assert(Message(position, $$"""{{{string.Join(",", names)}},"{{repeat}}":0}"""), Invalid, new RequestId("x7"));
            }
        }
    }

    [Theory]
    [MemberData(nameof(Positions))]
    public void LoneSurrogateEscape_AnywhereInABigValue_IsParseError(int position)
    {
        Refusal.Assert(Message(position, "\"ok\",\"\\ud800\""), Parse, RequestId.None);
        Refusal.Assert(Message(position, "{\"\\udc00\":1}"), Parse, RequestId.None);
    }

    [Theory]
    [MemberData(nameof(Positions))]
    public void TruncatedBigValue_IsParseError(int position)
    {
        var message = Message(position, """{"deep":[[[{"x":"y"}]]]}""");
        Refusal.Assert(message[..message.IndexOf("1,2,3", StringComparison.Ordinal)], Parse, RequestId.None);
    }

    [Theory]
    [MemberData(nameof(Positions))]
    public void BigValue_IsKeptExactly_AndTheIdAfterItIsRead(int position)
    {
        var inner = """{"s":"esc\"aped \u00e9","n":[1.5e3,-0,null,false],"o":{}}""";
        foreach (var member in new[] { "params", "result", "data" })
        {
            var utf8 = Encoding.UTF8.GetBytes(Message(position, inner, member));
            Assert.True(JsonRpcMessageReader.TryRead(utf8, out var info, out var error), error.Detail);
            Assert.Equal(new RequestId("x7"), info.GetId(utf8));
            var range = member switch { "params" => info.Params, "result" => info.Result, _ => info.ErrorData };
            var expected = utf8.AsSpan()[range].ToArray();
            Assert.StartsWith("[", Encoding.UTF8.GetString(expected), StringComparison.Ordinal);
            Assert.EndsWith("1,2,3]", Encoding.UTF8.GetString(expected), StringComparison.Ordinal);

            foreach (var path in MessageReading.AllPaths)
            {
                var message = MessageReading.Read(path, utf8);
                var (id, raw) = message switch
                {
                    JsonRpcRequest r => (r.Id, r.Params),
                    JsonRpcResponse r => (r.Id, r.Result),
                    JsonRpcError e => (e.Id, e.Error.Data),
                    _ => throw new InvalidOperationException(message.GetType().Name),
                };
                Assert.Equal(new RequestId("x7"), id);
                Assert.Equal(expected, raw.Span.ToArray());
            }
        }
    }
}
