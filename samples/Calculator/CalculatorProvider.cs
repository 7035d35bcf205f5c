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
            // The spec's subtract, from the ICalculator contract: [minuend, subtrahend] and {"minuend", "subtrahend"} both bind.
            client.AddTarget<ICalculator>(new Calculator());

            // add takes any number of values, [1, 2, 4]: a hand-written method, beside the contract.
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
