using System.Buffers;
using JsonRpc.Core.Tests.Support;

namespace JsonRpc.Core.Tests;

/// <summary>
/// Correctness assertions about allocations (not speed claims): the reader and the writer allocate nothing once warm;
/// the converter allocates nothing for what it skips; ids never box.
/// Measured with the current thread's allocation counter, so other tests running in parallel do not disturb them.
/// </summary>
public class AllocationTests
{
    private const int WarmUp = 200;
    private const int Iterations = 1_000;

    private static readonly string[] Typical =
    [
        """{"jsonrpc":"2.0","id":1,"method":"subtract","params":[42,23]}""",
        """{"jsonrpc":"2.0","id":"req-7","method":"tools/call","params":{"name":"search","arguments":{"q":"json","limit":10}}}""",
        """{"jsonrpc":"2.0","method":"notifications/progress","params":{"token":"t","progress":0.5}}""",
        """{"jsonrpc":"2.0","id":12345678901,"result":{"items":[1,2,3],"next":null,"ok":true}}""",
        """{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found","data":{"method":"nope"}}}""",
        """{"jsonrpc":"2.0","id":"\u0041","method":"esc\u0061ped","params":["\ud83d\ude00"]}""",
        """{"jsonrpc":"2.0","id":1.5,"method":"m","params":{"a":{"b":{"c":{"d":[[[[]]]]}}}}}""",
    ];

    public static TheoryData<string> TypicalMessages() => new(Typical);

    [Theory]
    [MemberData(nameof(TypicalMessages))]
    public void TryRead_TypicalMessage_AllocatesNothing(string json)
    {
        var message = System.Text.Encoding.UTF8.GetBytes(json);
        var allocated = Measure(message, static bytes =>
        {
            Span<byte> scratch = stackalloc byte[64];
            if (!JsonRpcMessageReader.TryRead(bytes, out var info, out _))
            {
                throw new InvalidOperationException("Refused a valid message.");
            }

            _ = info.TryGetInt64Id(out _);
            if (info.HasMethod)
            {
                _ = info.GetMethod(bytes, scratch);
            }
        });

        Assert.Equal(0, allocated);
    }

    [Fact]
    public void TryRead_BatchAndItsElements_AllocatesNothing()
    {
        var batch = System.Text.Encoding.UTF8.GetBytes(
            "[" + string.Join(",", Typical) + "," + """{"bad":1}""" + "]");
        var allocated = Measure(batch, static bytes =>
        {
            if (!JsonRpcMessageReader.TryRead(bytes, out var info, out _) || info.BatchCount != 8)
            {
                throw new InvalidOperationException("Refused a valid batch.");
            }

            foreach (var range in JsonRpcMessageReader.EnumerateBatch(bytes))
            {
                _ = JsonRpcMessageReader.TryReadBatchElement(bytes.AsSpan(range), out _, out _);
            }
        });

        Assert.Equal(0, allocated);
    }

    [Fact]
    public void TryRead_RefusedMessages_AllocateNothing()
    {
        // Refusals that need no exception from Utf8JsonReader: rule violations, invalid UTF-8, duplicate names.
        byte[][] refused =
        [
            """{"jsonrpc":"1.0","id":1,"method":"m"}"""u8.ToArray(),
            """{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}"""u8.ToArray(),
            """{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":1,"x":2}}"""u8.ToArray(),
            """{"jsonrpc":"2.0","id":1,"method":"\ud800"}"""u8.ToArray(),
            [.. """{"jsonrpc":"2.0","id":1,"method":"""u8, (byte)'"', 0xC3, (byte)'"', (byte)'}'],
        ];

        foreach (var message in refused)
        {
            var allocated = Measure(message, static bytes =>
            {
                if (JsonRpcMessageReader.TryRead(bytes, out _, out _))
                {
                    throw new InvalidOperationException("Accepted an invalid message.");
                }
            });
            Assert.Equal(0, allocated);
        }
    }

    [Fact]
    public void Write_EveryKindIntoReusedBuffer_AllocatesNothing()
    {
        JsonRpcMessage[] messages =
        [
            JsonRpcMessage.Parse("""{"jsonrpc":"2.0","id":1,"method":"subtract","params":[42,23]}"""),
            JsonRpcMessage.Parse("""{"jsonrpc":"2.0","method":"n","params":{"a":1}}"""),
            JsonRpcMessage.Parse("""{"jsonrpc":"2.0","id":"x","result":{"a":[1,2]}}"""),
            JsonRpcMessage.Parse("""{"jsonrpc":"2.0","id":1e3,"error":{"code":-32000,"message":"busy","data":[1]}}"""),
            JsonRpcMessage.Parse("""[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"}]"""),
        ];
        var buffer = new ArrayBufferWriter<byte>(4096);
        foreach (var message in messages)
        {
            for (var i = 0; i < WarmUp; i++)
            {
                buffer.ResetWrittenCount();
                JsonRpcMessageWriter.Write(buffer, message);
            }

            var before = GC.GetAllocatedBytesForCurrentThread();
            for (var i = 0; i < Iterations; i++)
            {
                buffer.ResetWrittenCount();
                JsonRpcMessageWriter.Write(buffer, message);
            }

            Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        }
    }

    [Fact]
    public void Deserialize_SkippedMembersNamesAndValues_AllocateNothingMore()
    {
        // The converter reads in place in one pass: no string per member name (plain, long or escaped), no copy of the
        // message, no document. However many members it skips, it allocates what the plain message costs: the message
        // object and its kept values.
        var plain = """{"jsonrpc":"2.0","id":1,"method":"subtract","params":[42,23]}"""u8.ToArray();
        var skipped = string.Join(",", Enumerable.Range(0, 40).Select(static i =>
            $$"""
            "anUnknownMemberWithAFairlyLongName{{i}}":{"inner{{i}}":[1,{"deeper{{i}}":null}],"x{{i}}":"{{new string('v', 100)}}"}
            """));
        var crowded = Encoding.UTF8.GetBytes(
            """{"jsonrpc":"2.0",""" + skipped + ""","id":1,"method":"subtract","params":[42,23]}""");
        Assert.Equal("subtract", Assert.IsType<JsonRpcRequest>(JsonSerializer.Deserialize(crowded, JsonRpcJsonContext.Default.JsonRpcMessage)).Method);

        var expected = Measure(plain, static bytes => JsonSerializer.Deserialize(bytes, JsonRpcJsonContext.Default.JsonRpcMessage));
        Assert.InRange(expected, 1, 200 * Iterations); // sanity: the message object and its params are counted
        AssertSamePerCall(expected, Measure(crowded, static bytes => JsonSerializer.Deserialize(bytes, JsonRpcJsonContext.Default.JsonRpcMessage)));
        AssertSamePerCall(
            Measure(plain, static bytes => JsonSerializer.Deserialize<JsonRpcMessage>(bytes)),
            Measure(crowded, static bytes => JsonSerializer.Deserialize<JsonRpcMessage>(bytes)));
    }

    // Equal per call: a one-off allocation that lands in the window (the runtime's own tiering work on a loaded machine,
    // ~100 bytes once) is not the converter's; a string per skipped name would be 40 x 24+ bytes on every one of the calls.
    private static void AssertSamePerCall(long expectedTotal, long actualTotal)
        => Assert.True(Math.Abs(actualTotal - expectedTotal) < Iterations,
            $"Expected {expectedTotal / (double)Iterations:F1} B per call, got {actualTotal / (double)Iterations:F1} B ({expectedTotal} vs {actualTotal} over {Iterations} calls).");

    [Fact]
    public void RequestId_CompareHashAndLookUp_AllocatesNothing()
    {
        // A readonly struct that never boxes: equality, hashing and dictionary look-ups by id cost nothing.
        RequestId[] ids = [new(42), new("42"), RequestId.FromNumberText("1.5e3"), RequestId.Null, RequestId.None];
        var table = new Dictionary<RequestId, int>();
        for (var i = 0; i < ids.Length; i++)
        {
            table[ids[i]] = i;
        }

        var allocated = Measure(Array.Empty<byte>(), _ =>
        {
            for (var i = 0; i < ids.Length; i++)
            {
                var copy = ids[i];
                if (!table.TryGetValue(copy, out var found) || found != i || copy != ids[i]
                    || !EqualityComparer<RequestId>.Default.Equals(copy, ids[i]) || copy.GetHashCode() != ids[i].GetHashCode()
                    || copy.Equals(ids[(i + 1) % ids.Length]))
                {
                    throw new InvalidOperationException("An id did not compare as itself.");
                }
            }
        });

        Assert.Equal(0, allocated);
    }

    private static long Measure(byte[] input, Action<byte[]> action)
    {
        for (var i = 0; i < WarmUp; i++)
        {
            action(input);
        }

        return Allocations.Least(() =>
        {
            for (var i = 0; i < Iterations; i++)
            {
                action(input);
            }
        });
    }
}
