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
