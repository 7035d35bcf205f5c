using System.Globalization;
using System.Text;

namespace JsonRpc.Benchmarks.Messages;

/// <summary>The messages every reading and writing benchmark uses, as UTF-8 bytes.</summary>
internal static class SampleMessages
{
    /// <summary>The ~1 KB value carried as params, result or error data by the <see cref="PayloadSize.OneKB"/> cases.</summary>
    public static string KilobytePayload { get; } = BuildKilobytePayload();

    public static byte[] Get(SampleKind kind, PayloadSize size) => Encoding.UTF8.GetBytes(GetText(kind, size));

    public static string GetText(SampleKind kind, PayloadSize size) => (kind, size) switch
    {
        // The small ones are the spec's examples (https://www.jsonrpc.org/specification#examples).
        (SampleKind.Request, PayloadSize.Small) => """{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}""",
        (SampleKind.Notification, PayloadSize.Small) => """{"jsonrpc":"2.0","method":"update","params":[1,2,3,4,5]}""",
        (SampleKind.Response, PayloadSize.Small) => """{"jsonrpc":"2.0","result":19,"id":1}""",
        (SampleKind.Error, PayloadSize.Small) => """{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":"1"}""",
        (SampleKind.Request, _) => $$"""{"jsonrpc":"2.0","method":"tools/call","params":{{KilobytePayload}},"id":2}""",
        (SampleKind.Notification, _) => $$"""{"jsonrpc":"2.0","method":"notifications/progress","params":{{KilobytePayload}}}""",
        (SampleKind.Response, _) => $$"""{"jsonrpc":"2.0","result":{{KilobytePayload}},"id":2}""",
        (SampleKind.Error, _) => $$"""{"jsonrpc":"2.0","error":{"code":-32000,"message":"Tool failed","data":{{KilobytePayload}}},"id":2}""",
        _ => throw new ArgumentOutOfRangeException(nameof(kind)),
    };

    private static string BuildKilobytePayload()
    {
        // A tool-call-like object: a few named members and an array of records mixing strings, numbers, booleans,
        // nested arrays and one escaped string, so that no reader gets away with a byte scan.
        var builder = new StringBuilder("""{"name":"inventory.search","arguments":{"query":"red \"running\" shoes","limit":10,"items":[""");
        for (var i = 0; i < 8; i++)
        {
            if (i > 0)
            {
                builder.Append(',');
            }

            builder.Append(CultureInfo.InvariantCulture,
                $$"""{"sku":"SKU-{{1000 + i}}","title":"Item number {{i}}","price":{{19.5 + i}},"inStock":{{(i % 3 != 0 ? "true" : "false")}},"tags":["sport","outdoor"]}""");
        }

        builder.Append("]}}");
        return builder.ToString();
    }
}
