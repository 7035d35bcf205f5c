using JsonRpc.Client;

namespace Calculator;

/// <summary>Serves <c>subtract</c> and <c>add</c> through the router under the name "calculator".</summary>
public static class CalculatorProvider
{
    public static async Task<JsonRpcClient> StartAsync(string host, int port, string name = "calculator", CancellationToken cancellationToken = default)
    {
        var json = CalculatorJson.Default;
        var client = await JsonRpcClient.ConnectAsync(host, port, cancellationToken: cancellationToken);
        try
        {
            // The spec's subtract takes [minuend, subtrahend] or {"minuend", "subtrahend"}: both bind here.
            client.AddMethod("subtract", "minuend", "subtrahend", static (int minuend, int subtrahend) => minuend - subtrahend, json.Int32, json.Int32, json.Int32);
            client.AddMethod("add", static (int[] values) => values.Sum(), json.Int32Array, json.Int32);
            await client.RegisterAsync(name, cancellationToken);
            return client;
        }
        catch
        {
            await client.DisposeAsync();
            throw;
        }
    }
}
