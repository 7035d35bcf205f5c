using CudaWorker.Compute;
using CudaWorker.Methods;
using JsonRpc.Client;
using JsonRpc.Protocol;

namespace JsonRpc.Samples.Tests.CudaWorker;

/// <summary>The worker as a real process, registered with a real router; calls go through the router over TCP.</summary>
public sealed class RouterIntegrationTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(20);

    [Fact]
    public async Task Worker_ThroughRouter_AnswersEveryMethodCorrectly()
    {
        await using var router = await TestRouter.StartAsync();
        await using var worker = await router.StartWorkerAsync("worker-1");
        var json = CudaWorkerJsonContext.Default;

        var sum = await router.Caller.CallAsync(GpuMethods.VectorAdd, new VectorAddRequest([1, 2, 3], [10, 20, 30.5f]), json.VectorAddRequest, json.VectorResponse).AsTask().WaitAsync(Timeout);
        var saxpy = await router.Caller.CallAsync(GpuMethods.Saxpy, new SaxpyRequest(2, [1, 2], [10, 20]), json.SaxpyRequest, json.VectorResponse).AsTask().WaitAsync(Timeout);
        var a = Reference.Random(11, 33 * 47);
        var b = Reference.Random(12, 47 * 29);
        var product = await router.Caller.CallAsync(GpuMethods.MatMul, new MatMulRequest(a, b, 33, 47, 29), json.MatMulRequest, json.MatrixResponse).AsTask().WaitAsync(Timeout);
        var info = await router.Caller.CallAsync<ComputeDeviceInfo>(GpuMethods.Info, default, json.ComputeDeviceInfo).AsTask().WaitAsync(Timeout);

        Assert.Equal([11f, 22f, 33.5f], sum!.Values);
        Assert.Equal([12f, 24f], saxpy!.Values);
        Assert.Equal((33, 29), (product!.Rows, product.Columns));
        Reference.AssertMatMul(a, b, 33, 47, 29, product.Values);
        Assert.Equal(CudaDevice.IsAvailable ? ComputeDeviceInfo.Cuda : ComputeDeviceInfo.Cpu, info!.Backend);
        CudaDevice.AssertExplains(info.CpuReason);
    }

    [Fact]
    public async Task Worker_BadShapesThroughRouter_AnswersInvalidParamsAndKeepsServing()
    {
        await using var router = await TestRouter.StartAsync();
        await using var worker = await router.StartWorkerAsync("worker-1");
        var json = CudaWorkerJsonContext.Default;

        var lengths = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => router.Caller.CallAsync(GpuMethods.VectorAdd, new VectorAddRequest([1], [1, 2]), json.VectorAddRequest, json.VectorResponse).AsTask().WaitAsync(Timeout));
        var shape = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => router.Caller.CallAsync(GpuMethods.MatMul, new MatMulRequest([1, 2, 3], [1, 2], 2, 2, 1), json.MatMulRequest, json.MatrixResponse).AsTask().WaitAsync(Timeout));
        var missing = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => router.Caller.CallAsync(GpuMethods.Saxpy, RawJson.Parse("""{"x": [1], "y": [2]}""")).AsTask().WaitAsync(Timeout));
        var served = await router.Caller.CallAsync(GpuMethods.VectorAdd, new VectorAddRequest([1], [2]), json.VectorAddRequest, json.VectorResponse).AsTask().WaitAsync(Timeout);

        Assert.Equal(-32602, lengths.Code);
        Assert.Contains("'a' has 1 elements and 'b' has 2", lengths.Message, StringComparison.Ordinal);
        Assert.Equal(-32602, shape.Code);
        Assert.Contains("'a' must hold m*k = 2*2 = 4 elements", shape.Message, StringComparison.Ordinal);
        Assert.Equal(-32602, missing.Code);
        Assert.Equal([3f], served!.Values);
    }

    [Fact]
    public async Task Workers_TwoWithDefaultNames_BothProvideTheMethods()
    {
        await using var router = await TestRouter.StartAsync();
        await using var first = await router.StartWorkerAsync();
        await using var second = await router.StartWorkerAsync();

        Assert.NotEqual(first.Name, second.Name);
        var json = CudaWorkerJsonContext.Default;
        for (var i = 0; i < 4; i++)
        {
            var sum = await router.Caller.CallAsync(GpuMethods.VectorAdd, new VectorAddRequest([i], [1]), json.VectorAddRequest, json.VectorResponse).AsTask().WaitAsync(Timeout);
            Assert.Equal([i + 1f], sum!.Values);
        }
    }

    [Fact]
    public async Task Worker_Sigterm_ExitsWithCode0AndItsMethodsAreGone()
    {
        await using var router = await TestRouter.StartAsync();
        await using var worker = await router.StartWorkerAsync("worker-1");

        var exitCode = await worker.TerminateAsync();

        Assert.Equal(0, exitCode);
        var gone = await Assert.ThrowsAsync<JsonRpcRemoteException>(() => router.Caller.CallAsync(GpuMethods.Info).AsTask().WaitAsync(Timeout));
        Assert.Equal(-32601, gone.Code);
    }

    [FakeCudaFact]
    public async Task Worker_FakeCudaDriverThroughRouter_ComputesOnTheDevicePath()
    {
        // The fake driver runs the kernels on the CPU from the arguments exactly as the worker passes them to
        // cuLaunchKernel, so right answers mean the marshalling, buffers and copies are right.
        await using var router = await TestRouter.StartAsync();
        await using var worker = await router.StartWorkerAsync("fake-gpu", FakeCudaDriver.Environment());
        var json = CudaWorkerJsonContext.Default;

        var info = await router.Caller.CallAsync<ComputeDeviceInfo>(GpuMethods.Info, default, json.ComputeDeviceInfo).AsTask().WaitAsync(Timeout);
        var x = Reference.Random(21, 1000);
        var y = Reference.Random(22, 1000);
        var sum = await router.Caller.CallAsync(GpuMethods.VectorAdd, new VectorAddRequest(x, y), json.VectorAddRequest, json.VectorResponse).AsTask().WaitAsync(Timeout);
        var saxpy = await router.Caller.CallAsync(GpuMethods.Saxpy, new SaxpyRequest(-1.5f, x, y), json.SaxpyRequest, json.VectorResponse).AsTask().WaitAsync(Timeout);
        var a = Reference.Random(23, 40 * 17);
        var b = Reference.Random(24, 17 * 35);
        var product = await router.Caller.CallAsync(GpuMethods.MatMul, new MatMulRequest(a, b, 40, 17, 35), json.MatMulRequest, json.MatrixResponse).AsTask().WaitAsync(Timeout);
        var infoAfter = await router.Caller.CallAsync<ComputeDeviceInfo>(GpuMethods.Info, default, json.ComputeDeviceInfo).AsTask().WaitAsync(Timeout);

        Assert.Equal((ComputeDeviceInfo.Cuda, "Fake GPU 0", "8.6"), (info!.Backend, info.DeviceName, info.ComputeCapability));
        for (var i = 0; i < x.Length; i++)
        {
            Assert.Equal(x[i] + y[i], sum!.Values[i]);
            Assert.Equal((-1.5 * x[i]) + y[i], saxpy!.Values[i], 1e-6);
        }

        Reference.AssertMatMul(a, b, 40, 17, 35, product!.Values);
        Assert.Equal(ComputeDeviceInfo.Cuda, infoAfter!.Backend); // nothing fell back to the CPU
    }

    [FakeCudaFact]
    public async Task Worker_DeviceFailsMidway_ServesOnTheCpuAndSaysWhy()
    {
        // The fake driver answers CUDA_ERROR_ILLEGAL_ADDRESS from the second launch on, as a faulted GPU would.
        await using var router = await TestRouter.StartAsync();
        await using var worker = await router.StartWorkerAsync("faulty-gpu", FakeCudaDriver.Environment(("FAKE_CUDA_FAIL_LAUNCH", "1")));
        var json = CudaWorkerJsonContext.Default;

        var first = await router.Caller.CallAsync(GpuMethods.VectorAdd, new VectorAddRequest([1], [2]), json.VectorAddRequest, json.VectorResponse).AsTask().WaitAsync(Timeout);
        var second = await router.Caller.CallAsync(GpuMethods.VectorAdd, new VectorAddRequest([3], [4]), json.VectorAddRequest, json.VectorResponse).AsTask().WaitAsync(Timeout);
        var third = await router.Caller.CallAsync(GpuMethods.MatMul, new MatMulRequest([1, 2], [3, 4], 1, 2, 1), json.MatMulRequest, json.MatrixResponse).AsTask().WaitAsync(Timeout);
        var info = await router.Caller.CallAsync<ComputeDeviceInfo>(GpuMethods.Info, default, json.ComputeDeviceInfo).AsTask().WaitAsync(Timeout);

        Assert.Equal([3f], first!.Values);
        Assert.Equal([7f], second!.Values);
        Assert.Equal([11f], third!.Values);
        Assert.Equal(ComputeDeviceInfo.Cpu, info!.Backend);
        Assert.Contains("CUDA_ERROR_FAKE_700", info.CpuReason, StringComparison.Ordinal);
        Assert.Contains("this call and all later ones run on the CPU", worker.Log, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Caller_WorkerBehindRouter_ChecksEveryMethodAndExitsWith0()
    {
        await using var router = await TestRouter.StartAsync();
        await using var worker = await router.StartWorkerAsync("worker-1");

        var (exitCode, stdout, stderr) = await WorkerProcess.RunAsync("caller", "--port", Port(router), "--size", "24", "--count", "2");

        Assert.True(exitCode == 0, stderr + stdout);
        Assert.Contains($"gpu.info: {(CudaDevice.IsAvailable ? "cuda" : "cpu")}", stdout, StringComparison.Ordinal);
        foreach (var method in (string[])["gpu.vector_add 576", "gpu.saxpy 576", "gpu.matmul 24x24x24"])
        {
            var line = Assert.Single(stdout.Split('\n'), line => line.StartsWith(method, StringComparison.Ordinal));
            Assert.Matches(@"2 calls +\d+\.\d\d ms/call .* OK$", line.TrimEnd());
        }

        Assert.Contains("all results match", stdout, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Caller_NoWorkerBehindRouter_ExitsWith1AndSaysWhy()
    {
        await using var router = await TestRouter.StartAsync();

        var (exitCode, _, stderr) = await WorkerProcess.RunAsync("caller", "--port", Port(router), "--count", "1");

        Assert.Equal(1, exitCode);
        Assert.Contains("The caller stopped", stderr, StringComparison.Ordinal);
    }

    private static string Port(TestRouter router) => router.Port.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
