using global::CudaWorker;

namespace JsonRpc.Samples.Tests.CudaWorker;

public sealed class WorkerOptionsTests
{
    [Fact]
    public void Parse_NoArgs_DefaultsToLocalRouterOn8080()
    {
        var options = WorkerOptions.Parse([]);

        Assert.Equal("127.0.0.1", options.Host);
        Assert.Equal(8080, options.Port);
        Assert.Equal($"cuda-worker-{Environment.ProcessId}", options.Name);
        Assert.False(options.RequireGpu);
        Assert.Equal(0, options.Device);
    }

    [Fact]
    public void Parse_EveryOption_IsRead()
    {
        var options = WorkerOptions.Parse(["--host", "router.local", "--port=9000", "--name", "gpu-1", "--require-gpu", "--device", "2", "--max-elements=1024"]);

        Assert.Equal("router.local", options.Host);
        Assert.Equal(9000, options.Port);
        Assert.Equal("gpu-1", options.Name);
        Assert.True(options.RequireGpu);
        Assert.Equal(2, options.Device);
        Assert.Equal(1024, options.Limits.MaxElements);
    }

    [Fact]
    public void Parse_Caller_ReadsItsOwnOptions()
    {
        var options = WorkerOptions.Parse(["caller", "--port", "9000", "--size", "64", "--count=3"]);

        Assert.True(options.Caller);
        Assert.Equal(9000, options.Port);
        Assert.Equal(64, options.Size);
        Assert.Equal(3, options.Count);
    }

    [Theory]
    [InlineData("caller", "--require-gpu")]
    [InlineData("caller", "--name", "x")]
    [InlineData("caller", "--size", "0")]
    [InlineData("caller", "--count", "-1")]
    [InlineData("--size", "64")]
    [InlineData("--count", "3")]
    [InlineData("--port", "8080", "caller")]
    public void Parse_OptionOfTheOtherMode_ThrowsFormatException(params string[] args)
        => Assert.Throws<FormatException>(() => WorkerOptions.Parse(args));

    [Theory]
    [InlineData("--port", "0")]
    [InlineData("--port", "65536")]
    [InlineData("--port", "-1")]
    [InlineData("--port", "80x")]
    [InlineData("--port")]
    [InlineData("--name", " ")]
    [InlineData("--max-elements", "0")]
    [InlineData("--require-gpu=yes")]
    [InlineData("--verbose")]
    public void Parse_BadArgs_ThrowsFormatException(params string[] args)
        => Assert.Throws<FormatException>(() => WorkerOptions.Parse(args));
}
