using Calculator;
using JsonRpc.Samples.Tests.CudaWorker;

namespace JsonRpc.Samples.Tests.Calculator;

public class CalculatorSampleTests
{
    [Fact]
    public async Task Caller_ThroughRouterWithProvider_GetsEverySpecAnswerAsyncAndBlocking()
    {
        await using var router = await TestRouter.StartAsync();
        await using var provider = await CalculatorProvider.StartAsync("127.0.0.1", router.Port).WaitAsync(TimeSpan.FromSeconds(10));
        var output = new StringWriter();

        var wrong = await CalculatorCaller.RunAsync("127.0.0.1", router.Port, output).WaitAsync(TimeSpan.FromSeconds(30));

        var text = output.ToString();
        Assert.Equal(0, wrong);
        Assert.Contains("subtract [42, 23] = 19", text, StringComparison.Ordinal);
        Assert.Contains("subtract [23, 42] = -19", text, StringComparison.Ordinal);
        Assert.Contains("calculator.CountAsync(1, 5) = 1 2 3 4 5", text, StringComparison.Ordinal);
        Assert.Contains("calculator.SumAsync([1, 2, 3, 4]) reports = 1 3 6 10", text, StringComparison.Ordinal);
        Assert.Contains("blocking calls:", text, StringComparison.Ordinal);
        Assert.Contains("all answers correct", text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task CallerProcess_WithoutProvider_ExitsNonZero_AndWithProvider_ExitsZero()
    {
        await using var router = await TestRouter.StartAsync();
        var port = router.Port.ToString(System.Globalization.CultureInfo.InvariantCulture);
        var none = new Dictionary<string, string>();

        var (failed, _, _) = await WorkerProcess.RunSampleAsync("Calculator.dll", none, "caller", "--port", port);
        Assert.NotEqual(0, failed); // -32601: nobody serves subtract yet

        await using var provider = await CalculatorProvider.StartAsync("127.0.0.1", router.Port).WaitAsync(TimeSpan.FromSeconds(10));
        var (exitCode, stdout, stderr) = await WorkerProcess.RunSampleAsync("Calculator.dll", none, "caller", "--port", port);
        Assert.True(exitCode == 0, stdout + stderr);
        Assert.Contains("all answers correct", stdout, StringComparison.Ordinal);
    }
}
