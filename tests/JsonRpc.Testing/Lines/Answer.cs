using System.Text.Json;

namespace JsonRpc.Testing.Lines;

/// <summary>Assertions on JSON-RPC answers.</summary>
public static class Answer
{
    public static void IsError(JsonElement answer, int code)
    {
        Assert.True(answer.TryGetProperty("error", out var error), $"Expected error {code}, got {answer}");
        Assert.Equal(code, error.GetProperty("code").GetInt32());
        Assert.Equal("2.0", answer.GetProperty("jsonrpc").GetString());
    }

    public static void IsResult(JsonElement answer, string expectedRawResult)
    {
        Assert.True(answer.TryGetProperty("result", out var result), $"Expected a result, got {answer}");
        Assert.Equal(expectedRawResult, result.GetRawText());
    }
}
