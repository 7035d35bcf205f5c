using System.Text;
using System.Text.Json;
using JsonRpc.Server.Streams;

namespace JsonRpc.Server.Tests;

/// <summary>What the router finds in messages for streams and progress; expected values written out by hand.</summary>
public sealed class StreamScannerTests
{
    private static byte[] U(string json) => Encoding.UTF8.GetBytes(json);

    private static string[] Tokens(string json, bool includeRoot)
    {
        var bytes = U(json);
        var ranges = new List<Range>();
        StreamScanner.FindEnumerables(bytes, includeRoot, ranges);
        return [.. ranges.Select(r => Encoding.UTF8.GetString(bytes[r]))];
    }

    [Theory]
    [InlineData("""{"token":17}""", true, new[] { "17" })]
    [InlineData("""{"token":17,"values":[1,2,3]}""", true, new[] { "17" })]
    [InlineData("""{"values":[1,2,3]}""", true, new string[0])]
    [InlineData("""{"token":17}""", false, new string[0])]
    [InlineData("""["hi",{"token":5,"values":[]},{"token":6}]""", false, new[] { "5", "6" })]
    [InlineData("""{"enumerable":{"token":8,"values":[1]},"count":10}""", true, new[] { "8" })]
    [InlineData("""{"token":"jwt-abc"}""", true, new string[0])]
    [InlineData("""{"token":1.5}""", true, new string[0])]
    [InlineData("""{"token":17,"user":"x"}""", true, new string[0])]
    [InlineData("""{"token":17,"values":3}""", true, new string[0])]
    [InlineData("""{"token":{"token":4}}""", true, new[] { "4" })]
    [InlineData("""[{"a":{"b":[{"token":9}]}}]""", true, new[] { "9" })]
    [InlineData("""{"token":null,"values":[1]}""", true, new string[0])]
    public void FindEnumerables_FindsStreamJsonRpcsEnumerableObjectsOnly(string json, bool includeRoot, string[] expected)
        => Assert.Equal(expected, Tokens(json, includeRoot));

    [Theory]
    [InlineData("""{"token":17,"values":[1,2,3]}""", true)]
    [InlineData("""{"values":[{"a":[1]}],"token":17}""", true)]
    [InlineData("""{"token":17,"values":[[]]}""", true)]
    [InlineData("""{"token":17,"values":[]}""", false)]
    [InlineData("""{"token":17}""", false)]
    [InlineData("""{"token":17,"values":null}""", false)]
    [InlineData("""{"e":{"token":8,"values":[1]},"token":17}""", false)]
    [InlineData("""{"token":17,"values":[1],"user":"x"}""", false)]
    [InlineData("""[{"token":17,"values":[1]}]""", false)]
    public void FindEnumerables_RootWithValues_ReportedPrefetchedAsTheLastRange(string json, bool expected)
    {
        var bytes = U(json);
        var ranges = new List<Range>();
        StreamScanner.FindEnumerables(bytes, includeRoot: true, ranges, out var rootPrefetched);
        Assert.Equal(expected, rootPrefetched);
        if (expected)
        {
            Assert.Equal("17", Encoding.UTF8.GetString(bytes[ranges[^1]]));
        }
    }

    [Fact]
    public void FindEnumerables_TooDeep_IsNotSearchedAndDoesNotFail()
    {
        var json = new string('[', 40) + """{"token":3}""" + new string(']', 40);
        Assert.Empty(Tokens(json, includeRoot: true));
        Assert.Equal(["3"], Tokens(new string('[', 10) + """{"token":3}""" + new string(']', 10), includeRoot: true));
    }

    [Theory]
    [InlineData("[1,2]", "1,2")]
    [InlineData("""[5,{"a":7},[8],"9",1.5]""", "5")]
    [InlineData("""{"a":1,"b":"2","c":{"d":3}}""", "1")]
    [InlineData("""{"textDocument":{"uri":"x"},"workDoneToken":"wd","partialResultToken":7}""", "wd*,7*")]
    [InlineData("""{"name":"t","_meta":{"progressToken":"p","other":1},"arguments":{"n":5}}""", "p*")]
    [InlineData("""{"_meta":{"progressToken":42}}""", "42*")]
    [InlineData("""{"workDoneToken":"\u0061b"}""", "ab*")]
    [InlineData("\"just a string\"", "")]
    [InlineData("", "")]
    public void CollectProgress_NamedTokensAndTopLevelIntegers(string @params, string expected)
    {
        var found = new List<ProgressToken>();
        StreamScanner.CollectProgress(U(@params), found);
        Assert.Equal(expected, string.Join(",", found.Select(t => t + (t.Named ? "*" : ""))));
    }

    [Fact]
    public void CollectProgress_IntegersKnowWhichArgumentTheyAreAndWhereTheyLie()
    {
        var byPosition = new List<ProgressToken>();
        StreamScanner.CollectProgress(U("""[ "a", 12 ,{"x":1}, 345]"""), byPosition);
        Assert.Equal([1L, 3L], byPosition.Select(t => t.Slot));
        Assert.Equal(["12", "345"], byPosition.Select(t => Encoding.UTF8.GetString(U("""[ "a", 12 ,{"x":1}, 345]""")[t.Value])));

        // By name, an argument's slot is the same whatever the order of the members, and differs between names.
        var first = new List<ProgressToken>();
        var second = new List<ProgressToken>();
        StreamScanner.CollectProgress(U("""{"count":3,"progress":7}"""), first);
        StreamScanner.CollectProgress(U("""{"progress":9,"count":3}"""), second);
        Assert.Equal(first[1].Slot, second[0].Slot);
        Assert.Equal(first[0].Slot, second[1].Slot);
        Assert.NotEqual(first[0].Slot, first[1].Slot);
        Assert.All(first, t => Assert.True(t.Slot < ProgressToken.NoSlot));
    }

    [Fact]
    public void CollectProgress_KeepsAtMost16Integers()
    {
        var found = new List<ProgressToken>();
        StreamScanner.CollectProgress(U("[" + string.Join(",", Enumerable.Range(0, 40)) + "]"), found);
        Assert.Equal(16, found.Count);
    }

    [Theory]
    [InlineData("[3,{\"pct\":10}]", false, "3")]
    [InlineData("""{"token":"wd","value":{"kind":"end"}}""", false, "wd")]
    [InlineData("""{"value":1,"token":7}""", false, "7")]
    [InlineData("""{"progressToken":"job","progress":1,"total":2}""", true, "job")]
    [InlineData("""{"progressToken":"\u006Aob"}""", true, "job")]
    public void TryReadProgressToken_ReadsEachProtocolsForm(string @params, bool mcp, string expected)
    {
        Assert.True(StreamScanner.TryReadProgressToken(U(@params), mcp, out var token, out var range));
        Assert.Equal(expected, token.ToString());
        Assert.Equal(expected, JsonDocument.Parse(U(@params)[range]).RootElement.ToString()); // where the token is, as sent
    }

    [Theory]
    [InlineData("[]", false)]
    [InlineData("""{"value":1}""", false)]
    [InlineData("""["job",1]""", true)]
    [InlineData("""{"token":[1]}""", false)]
    [InlineData("", false)]
    public void TryReadProgressToken_NoToken_False(string @params, bool mcp)
        => Assert.False(StreamScanner.TryReadProgressToken(U(@params), mcp, out _, out _));

    [Fact]
    public void ProgressToken_StringAndNumberNeverEqual()
    {
        var found = new List<ProgressToken>();
        StreamScanner.CollectProgress(U("""{"workDoneToken":"1","partialResultToken":1,"x":1.0}"""), found);
        Assert.Equal(2, found.Count);
        Assert.NotEqual(found[0], found[1]);
    }

    [Theory]
    [InlineData("[12]", 12L, "12")]
    [InlineData("""{"token":12}""", 12L, "12")]
    [InlineData("""{"other":"x","token":99}""", 99L, "99")]
    public void TryReadEnumeratorToken_ReadsTheTokenAndWhereItIs(string @params, long expected, string text)
    {
        var bytes = U(@params);
        Assert.True(StreamScanner.TryReadEnumeratorToken(bytes, out var token, out var range));
        Assert.Equal(expected, token);
        Assert.Equal(text, Encoding.UTF8.GetString(bytes[range]));
    }

    [Theory]
    [InlineData("[]")]
    [InlineData("""["12"]""")]
    [InlineData("""{"token":1.5}""")]
    [InlineData("null")]
    [InlineData("")]
    public void TryReadEnumeratorToken_NotAnIntegerToken_False(string @params)
        => Assert.False(StreamScanner.TryReadEnumeratorToken(U(@params), out _, out _));

    [Theory]
    [InlineData("""{"values":[1,2],"finished":true}""", true)]
    [InlineData("""{"values":[1,2],"finished":false}""", false)]
    [InlineData("""{"finished":true,"values":[1]}""", true)]
    [InlineData("""{"values":[{"finished":true}]}""", false)]
    [InlineData("""{"values":["x"],"other":{"a":1,"finished":true}}""", false)]
    [InlineData("""{"values":[1]}""", false)]
    [InlineData("""{ "values": [1], "finished": true }""", true)]
    [InlineData("[[1],true]", false)]
    public void IsFinished_OnlyTheOutermostMember(string result, bool expected)
        => Assert.Equal(expected, StreamScanner.IsFinished(U(result)));

    [Theory]
    [InlineData("""{"token":1}""", true)]
    [InlineData("""{"tokens":1}""", false)]
    [InlineData("[1,2,3]", false)]
    public void MayHoldEnumerable_SearchesForTheMemberName(string json, bool expected)
        => Assert.Equal(expected, StreamScanner.MayHoldEnumerable(U(json)));

    [Fact]
    public void FindEnumerables_StopsOnePastTheLimit()
    {
        var json = "[" + string.Join(",", Enumerable.Range(0, 1000).Select(i => $$"""{"token":{{i}}}""")) + "]";
        Assert.Equal(StreamScanner.MaxEnumerablesPerMessage + 1, Tokens(json, includeRoot: false).Length);
    }
}
