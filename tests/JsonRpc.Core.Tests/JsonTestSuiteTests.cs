namespace JsonRpc.Core.Tests;

/// <summary>
/// nst/JSONTestSuite, with strict_profile_overrides.json applied. Each document is read as the <c>result</c> of a
/// Response (a result may be any JSON value) and, separately, as a whole message of its own.
/// </summary>
/// <remarks>
/// Inside the envelope a document can change meaning: <c>{"asd":"asd"</c> is closed by the envelope's own <c>}</c>,
/// which leaves the envelope open; <c>1]</c> closes an array never opened. Such a document must still be a Parse error
/// inside the envelope (it is: the envelope is then truncated or has a stray bracket), and it is also tested on its own
/// by <see cref="ReadWholeMessage_Document_GetsItsVerdict"/>, where nothing can repair it. An empty or
/// whitespace-only document leaves <c>"result":}</c>, which is not JSON either.
/// </remarks>
public class JsonTestSuiteTests
{
    private const string Prefix = """{"jsonrpc":"2.0","id":1,"result":""";
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(10);

    public static TheoryData<string> Files() => new(JsonTestSuiteCase.All.Keys.Order(StringComparer.Ordinal));

    [Fact]
    public void Suite_Overrides_AreApplied()
    {
        var all = JsonTestSuiteCase.All;
        Assert.Equal(318, all.Count);
        Assert.Equal(95 - 2 + 10, all.Values.Count(v => v == SuiteVerdict.Accept));
        Assert.Equal(188 + 13 + 10, all.Values.Count(v => v == SuiteVerdict.ParseError));
        Assert.Equal(2, all.Values.Count(v => v == SuiteVerdict.DuplicateName));
        Assert.Equal(2, all.Values.Count(v => v == SuiteVerdict.Either));
        Assert.Equal(SuiteVerdict.DuplicateName, all["y_object_duplicated_key.json"]);
        Assert.Equal(SuiteVerdict.ParseError, all["i_string_lone_second_surrogate.json"]);
        Assert.Equal(SuiteVerdict.Accept, all["i_number_huge_exp.json"]);
    }

    [Theory]
    [MemberData(nameof(Files))]
    public Task TryRead_DocumentAsResult_GetsItsVerdict(string file) => Bounded(() =>
    {
        var document = JsonTestSuiteCase.Bytes(file);
        var message = Envelope(document);
        var verdict = JsonTestSuiteCase.All[file];
        var ok = JsonRpcMessageReader.TryRead(message, out var info, out var error);
        switch (verdict)
        {
            case SuiteVerdict.Accept:
                Assert.True(ok, error.Detail);
                Assert.Equal(JsonRpcMessageKind.Response, info.Kind);
                Assert.True(info.HasResult);
                Assert.Equal(JsonTestSuiteCase.TrimWhitespace(document), message.AsSpan(info.Result));
                Assert.True(info.TryGetInt64Id(out var id) && id == 1);
                break;
            case SuiteVerdict.ParseError:
                Assert.False(ok);
                Assert.Equal(JsonRpcErrorCodes.ParseError, error.Code);
                Assert.Equal(RequestIdKind.None, info.IdKind);
                break;
            case SuiteVerdict.DuplicateName:
                Assert.False(ok);
                Assert.Equal(JsonRpcErrorCodes.InvalidRequest, error.Code);
                Assert.Equal(new RequestId(1), info.GetId(message));
                break;
            default:
                Assert.True(ok || error.Code is JsonRpcErrorCodes.ParseError or JsonRpcErrorCodes.InvalidRequest);
                break;
        }
    });

    [Theory]
    [MemberData(nameof(Files))]
    public Task Read_DocumentAsResult_GetsItsVerdictOnEveryPath(string file) => Bounded(() =>
    {
        var document = JsonTestSuiteCase.Bytes(file);
        var message = Envelope(document);
        var verdict = JsonTestSuiteCase.All[file];
        foreach (var path in MessageReading.AllPaths)
        {
            if (!MessageReading.Accepts(path, message))
            {
                continue;
            }

            JsonRpcMessage read;
            try
            {
                read = MessageReading.Read(path, message);
            }
            catch (JsonRpcProtocolException ex)
            {
                var expected = verdict switch
                {
                    SuiteVerdict.ParseError => JsonRpcErrorCodes.ParseError,
                    SuiteVerdict.DuplicateName => JsonRpcErrorCodes.InvalidRequest,
                    SuiteVerdict.Either => ex.ErrorCode,
                    _ => throw new Xunit.Sdk.XunitException($"{path} refused a valid document: {ex.Message}"),
                };
                Assert.Equal(expected, ex.ErrorCode);
                Assert.Equal(expected == JsonRpcErrorCodes.ParseError ? RequestId.None : new RequestId(1), ex.Id);
                continue;
            }
            catch (JsonException ex) when (MessageReading.SerializerReadsAhead(path))
            {
                // The serializer found the syntax error while buffering the value, before calling the converter.
                Assert.True(verdict is SuiteVerdict.ParseError or SuiteVerdict.Either, $"{path}: {ex.Message}");
                continue;
            }

            Assert.True(verdict is SuiteVerdict.Accept or SuiteVerdict.Either, $"{path} accepted a document it must refuse.");
            var response = Assert.IsType<JsonRpcResponse>(read);
            var expectedBytes = Expected(document);
            Assert.Equal(JsonTestSuiteCase.TrimWhitespace(document), response.Result.Span);
            Assert.Equal(expectedBytes, response.ToUtf8Bytes());
            Assert.Equal(expectedBytes, JsonSerializer.SerializeToUtf8Bytes(read, JsonRpcJsonContext.Default.JsonRpcMessage));
        }
    });

    [Theory]
    [MemberData(nameof(Files))]
    public Task ReadWholeMessage_Document_GetsItsVerdict(string file) => Bounded(() =>
    {
        // On its own no document is a JSON-RPC message: a Parse error if it is not JSON; a batch of invalid elements if
        // it is a non-empty array (as the spec's [1,2,3]); otherwise an Invalid Request.
        var document = JsonTestSuiteCase.Bytes(file);
        var verdict = JsonTestSuiteCase.All[file];
        var ok = JsonRpcMessageReader.TryRead(document, out var info, out var error);
        JsonRpcMessage? message = null;
        JsonRpcProtocolException? parseError = null;
        try
        {
            message = JsonRpcMessage.Parse(new ReadOnlyMemory<byte>(document));
        }
        catch (JsonRpcProtocolException ex)
        {
            parseError = ex;
        }

        Assert.Equal(ok, message is not null);
        if (ok)
        {
            Assert.True(verdict is SuiteVerdict.Accept or SuiteVerdict.DuplicateName or SuiteVerdict.Either);
            Assert.Equal(JsonRpcMessageKind.Batch, info.Kind);
            var batch = Assert.IsType<JsonRpcBatch>(message);
            Assert.Equal(info.BatchCount, batch.Messages.Count);
            Assert.All(batch.Messages, m => Assert.Equal(JsonRpcErrorCodes.InvalidRequest, Assert.IsType<JsonRpcInvalidMessage>(m).Code));
        }
        else
        {
            AssertCode(verdict, error.Code);
            Assert.Equal(error.Code, parseError!.ErrorCode);
        }

        // The serializer reads the first token itself: a document that does not start with a value is refused before
        // the converter runs, as a plain JsonException. Whatever reaches the converter gives the same answer as Parse.
        try
        {
            var viaSerializer = JsonSerializer.Deserialize(document, JsonRpcJsonContext.Default.JsonRpcMessage);
            Assert.True(ok);
            Assert.Equal(info.BatchCount, Assert.IsType<JsonRpcBatch>(viaSerializer).Messages.Count);
        }
        catch (JsonRpcProtocolException ex)
        {
            Assert.False(ok);
            Assert.Equal(error.Code, ex.ErrorCode);
        }
        catch (JsonException)
        {
            Assert.False(ok);
            Assert.Equal(JsonRpcErrorCodes.ParseError, error.Code);
        }
    });

    [Theory]
    [MemberData(nameof(Files))]
    public Task RawJsonFromUtf8_Document_GetsItsVerdict(string file) => Bounded(() =>
    {
        var document = JsonTestSuiteCase.Bytes(file);
        var verdict = JsonTestSuiteCase.All[file];
        try
        {
            var raw = RawJson.FromUtf8(document);
            Assert.True(verdict is SuiteVerdict.Accept or SuiteVerdict.Either, "A document that must be refused was accepted.");
            Assert.Equal(JsonTestSuiteCase.TrimWhitespace(document), raw.Span); // the value, without whitespace around it
        }
        catch (JsonRpcProtocolException ex)
        {
            Assert.NotEqual(SuiteVerdict.Accept, verdict);
            if (verdict != SuiteVerdict.Either)
            {
                Assert.Equal(verdict == SuiteVerdict.ParseError ? JsonRpcErrorCodes.ParseError : JsonRpcErrorCodes.InvalidRequest, ex.ErrorCode);
            }
        }
    });

    private static void AssertCode(SuiteVerdict verdict, int code)
    {
        switch (verdict)
        {
            case SuiteVerdict.ParseError:
                Assert.Equal(JsonRpcErrorCodes.ParseError, code);
                break;
            case SuiteVerdict.Either:
                Assert.True(code is JsonRpcErrorCodes.ParseError or JsonRpcErrorCodes.InvalidRequest);
                break;
            default:
                Assert.Equal(JsonRpcErrorCodes.InvalidRequest, code);
                break;
        }
    }

    private static byte[] Envelope(byte[] document) => [.. Encoding.UTF8.GetBytes(Prefix), .. document, (byte)'}'];

    private static byte[] Expected(byte[] document) => [.. Encoding.UTF8.GetBytes(Prefix), .. JsonTestSuiteCase.TrimWhitespace(document), (byte)'}'];

    private static Task Bounded(Action test) => Task.Run(test).WaitAsync(Bound);
}
