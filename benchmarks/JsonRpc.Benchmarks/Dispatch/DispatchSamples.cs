using System.Globalization;
using System.Text;

namespace JsonRpc.Benchmarks.Dispatch;

/// <summary>The request bytes of each <see cref="DispatchScenario"/>, and the handlers both dispatchers register.</summary>
internal static class DispatchSamples
{
    public static byte[] Get(DispatchScenario scenario) => Encoding.UTF8.GetBytes(scenario switch
    {
        DispatchScenario.Success => Call("subtract", 1),
        DispatchScenario.HandlerThrows => Call("fail", 1),
        DispatchScenario.MethodNotFound => Call("foobar", 1),
        _ => Batch(20),
    });

    /// <summary>The same calls as newline-framed input for a server on a pipe, and how many answer lines come back.</summary>
    /// <param name="scenario">The scenario.</param>
    /// <param name="batchAsLines">
    /// Send the batch's 20 calls as 20 lines rather than as one batch: StreamJsonRpc does not take batches (it reads a
    /// JSON array as a malformed message and drops the connection), so a StreamJsonRpc client sends them one by one.
    /// </param>
    public static (byte[] Input, int Answers) GetFramed(DispatchScenario scenario, bool batchAsLines)
    {
        if (scenario == DispatchScenario.Batch20 && batchAsLines)
        {
            var lines = new StringBuilder();
            for (var i = 1; i <= 20; i++)
            {
                lines.Append(Call("subtract", i)).Append('\n');
            }

            return (Encoding.UTF8.GetBytes(lines.ToString()), 20);
        }

        return ([.. Get(scenario), (byte)'\n'], 1);
    }

    public static int Subtract(int minuend, int subtrahend) => minuend - subtrahend;

    public static int Fail(int minuend, int subtrahend) => throw new InvalidOperationException("The handler failed.");

    private static string Call(string method, int id)
        => string.Create(CultureInfo.InvariantCulture, $$"""{"jsonrpc":"2.0","method":"{{method}}","params":[42,23],"id":{{id}}}""");

    private static string Batch(int count)
    {
        var builder = new StringBuilder("[");
        for (var i = 1; i <= count; i++)
        {
            builder.Append(i == 1 ? "" : ",").Append(Call("subtract", i));
        }

        return builder.Append(']').ToString();
    }
}
