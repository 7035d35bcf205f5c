using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;

namespace JsonRpc.Testing.Web;

/// <summary>JSON-RPC over the router's HTTP POST endpoint, with an optional Authorization: Bearer header.</summary>
public static class WebPost
{
    private static readonly HttpClient Http = new() { Timeout = Bounded.Timeout };

    /// <summary>Posts <paramref name="body"/> as application/json to <paramref name="uri"/> (bounded).</summary>
    public static Task<HttpResponseMessage> SendAsync(Uri uri, string body, string? bearer)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, uri) { Content = new StringContent(body, Encoding.UTF8) };
        request.Content.Headers.ContentType = MediaTypeHeaderValue.Parse("application/json");
        if (bearer is not null)
        {
            request.Headers.Authorization = new AuthenticationHeaderValue("Bearer", bearer);
        }

        return Http.SendAsync(request).Within();
    }

    /// <summary>Asserts 200 OK and parses the body.</summary>
    public static async Task<JsonElement> BodyAsync(HttpResponseMessage response)
    {
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.Clone();
    }
}
