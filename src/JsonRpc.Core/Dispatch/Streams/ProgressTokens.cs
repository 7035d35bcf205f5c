using System.Text.Json;
using JsonRpc.Protocol;

namespace JsonRpc.Dispatch.Streams;

/// <summary>Finds the progress token a call's params name: LSP's <c>workDoneToken</c> or <c>partialResultToken</c>, MCP's <c>_meta.progressToken</c>.</summary>
internal static class ProgressTokens
{
    /// <summary>The first such token of the params object (a number or a string); false when there is none. Never throws.</summary>
    public static bool TryFind(ReadOnlySpan<byte> @params, out RawJson token, out JsonRpcProgressStyle style)
    {
        token = default;
        style = JsonRpcProgressStyle.Named;
        if (@params.IsEmpty)
        {
            return false;
        }

        try
        {
            var reader = new Utf8JsonReader(@params);
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            {
                return false;
            }

            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                var lsp = reader.ValueTextEquals("workDoneToken"u8) || reader.ValueTextEquals("partialResultToken"u8);
                var meta = !lsp && reader.ValueTextEquals("_meta"u8);
                reader.Read();
                if (lsp && TryTake(@params, ref reader, out token))
                {
                    style = JsonRpcProgressStyle.Named;
                    return true;
                }

                if (meta && reader.TokenType == JsonTokenType.StartObject)
                {
                    while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
                    {
                        var isToken = reader.ValueTextEquals("progressToken"u8);
                        reader.Read();
                        if (isToken && TryTake(@params, ref reader, out token))
                        {
                            style = JsonRpcProgressStyle.Mcp;
                            return true;
                        }

                        reader.Skip();
                    }

                    continue;
                }

                reader.Skip();
            }
        }
        catch (JsonException)
        {
            // Not ours to judge here: the params' binder answers for them.
        }

        return false;
    }

    private static bool TryTake(ReadOnlySpan<byte> @params, ref Utf8JsonReader reader, out RawJson token)
    {
        token = default;
        if (reader.TokenType is not (JsonTokenType.Number or JsonTokenType.String))
        {
            return false;
        }

        var start = (int)reader.TokenStartIndex;
        var end = (int)reader.BytesConsumed;
        token = RawJson.FromTrustedUtf8(@params[start..end].ToArray());
        return true;
    }
}
