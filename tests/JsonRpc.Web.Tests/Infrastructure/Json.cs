using System.Text.Json;
using JsonRpc.Protocol;

namespace JsonRpc.Web.Tests.Infrastructure;

/// <summary>Assertions on JSON-RPC answers.</summary>
public static class Json
{
    public static void IsResult(JsonElement answer, string expectedResultJson)
    {
        Assert.True(answer.TryGetProperty("result", out var result), "Expected a result: " + answer.GetRawText());
        Assert.Equal(expectedResultJson, result.GetRawText());
    }

    public static void IsError(JsonElement answer, int code)
    {
        Assert.True(answer.TryGetProperty("error", out var error), "Expected an error: " + answer.GetRawText());
        Assert.Equal(code, error.GetProperty("code").GetInt32());
    }

    public static JsonElement Parse(string json) => JsonDocument.Parse(json).RootElement.Clone();

    public static RawJson Raw(string json) => RawJson.Parse(json);
}
