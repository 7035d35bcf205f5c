namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The token every caller and provider authenticates with (<c>--token</c>), for a router with a security
/// configuration: JsonRpcClient connections send it as their access token, raw sockets with <c>authenticate</c> or
/// <c>register_client</c>. Null: nobody authenticates.
/// </summary>
internal static class LoadAuth
{
    public static string? Token { get; set; }

    /// <summary>The <c>authenticate</c> request for the token, or null.</summary>
    public static byte[]? AuthenticateLine => Token is null ? null : AuthenticateLineFor(Token);

    /// <summary>The <c>authenticate</c> request for <paramref name="token"/> (the noisy neighbour's own).</summary>
    public static byte[] AuthenticateLineFor(string token)
        => System.Text.Encoding.UTF8.GetBytes("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"authenticate\",\"params\":{\"token\":\"" + token + "\"}}");
}
