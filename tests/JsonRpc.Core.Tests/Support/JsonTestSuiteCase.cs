namespace JsonRpc.Core.Tests.Support;

/// <summary>What the strict profile expects of one JSONTestSuite document.</summary>
public enum SuiteVerdict
{
    /// <summary>Valid JSON: accepted and written back byte for byte.</summary>
    Accept,

    /// <summary>Not JSON (or not UTF-8, or a lone surrogate escape): Parse error -32700.</summary>
    ParseError,

    /// <summary>JSON with a member name twice (RFC 7493): Invalid Request -32600.</summary>
    DuplicateName,

    /// <summary>Either verdict is acceptable; it must only not crash or hang.</summary>
    Either,
}

/// <summary>The JSONTestSuite documents and the verdict each gets once strict_profile_overrides.json is applied.</summary>
internal static class JsonTestSuiteCase
{
    private static readonly Lazy<Dictionary<string, SuiteVerdict>> Verdicts = new(Load);

    public static IReadOnlyDictionary<string, SuiteVerdict> All => Verdicts.Value;

    public static byte[] Bytes(string file) => File.ReadAllBytes(Path.Combine(ConformanceFiles.JsonTestSuite, file));

    /// <summary>The document with JSON whitespace around it removed: what must be written back.</summary>
    public static ReadOnlySpan<byte> TrimWhitespace(ReadOnlySpan<byte> json)
    {
        var start = 0;
        var end = json.Length;
        while (start < end && IsWhitespace(json[start]))
        {
            start++;
        }

        while (end > start && IsWhitespace(json[end - 1]))
        {
            end--;
        }

        return json[start..end];
    }

    private static bool IsWhitespace(byte b) => b is (byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n';

    private static Dictionary<string, SuiteVerdict> Load()
    {
        var verdicts = new Dictionary<string, SuiteVerdict>(StringComparer.Ordinal);
        foreach (var path in Directory.GetFiles(ConformanceFiles.JsonTestSuite, "*.json"))
        {
            var file = Path.GetFileName(path);
            verdicts[file] = file[0] switch
            {
                'y' => SuiteVerdict.Accept,
                'n' => SuiteVerdict.ParseError,
                'i' => SuiteVerdict.Either,
                _ => throw new InvalidDataException($"Unexpected JSONTestSuite file {file}."),
            };
        }

        using var overrides = JsonDocument.Parse(File.ReadAllBytes(ConformanceFiles.StrictOverrides));
        foreach (var group in overrides.RootElement.EnumerateObject())
        {
            if (group.Value.ValueKind != JsonValueKind.Array)
            {
                continue; // "_about"
            }

            var verdict = group.Name switch
            {
                var n when n.StartsWith("rfc8259_must_reject_invalid_utf8", StringComparison.Ordinal) => SuiteVerdict.ParseError,
                var n when n.StartsWith("ijson_rfc7493_2_1_must_reject_escaped_lone", StringComparison.Ordinal) => SuiteVerdict.ParseError,
                var n when n.StartsWith("ijson_rfc7493_2_3_must_reject_duplicate", StringComparison.Ordinal) => SuiteVerdict.DuplicateName,
                var n when n.StartsWith("syntactically_valid_must_accept", StringComparison.Ordinal) => SuiteVerdict.Accept,
                "still_either" => SuiteVerdict.Either,
                _ => throw new InvalidDataException($"Unknown override group '{group.Name}'."),
            };

            foreach (var file in group.Value.EnumerateArray())
            {
                var name = file.GetString()!;
                if (!verdicts.ContainsKey(name))
                {
                    throw new InvalidDataException($"The overrides name {name}, which is not in the suite.");
                }

                verdicts[name] = verdict;
            }
        }

        return verdicts;
    }
}
