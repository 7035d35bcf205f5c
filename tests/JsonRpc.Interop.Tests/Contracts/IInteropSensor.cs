using System.Text.Json.Serialization;
using Ours = JsonRpc.Contracts;
using Theirs = StreamJsonRpc;

namespace JsonRpc.Interop.Tests.Contracts;

/// <summary>
/// A contract with events that both stacks serve and attach to: a typed <see cref="EventHandler{TEventArgs}"/> and a
/// plain <see cref="EventHandler"/>, each raised by a call.
/// </summary>
#pragma warning disable StreamJsonRpc0008
[Ours.JsonRpcContract(typeof(InteropSensorJson))]
[Theirs.JsonRpcContract]
public partial interface IInteropSensor
#pragma warning restore StreamJsonRpc0008
{
    event EventHandler<Measurement>? Measured;

    event EventHandler? Poked;

    Task MeasureAsync(double value, string unit);

    Task PokeAsync();
}

public sealed record Measurement(double Value, string Unit);

[JsonSerializable(typeof(double))]
[JsonSerializable(typeof(string))]
[JsonSerializable(typeof(Measurement))]
public sealed partial class InteropSensorJson : JsonSerializerContext;

/// <summary>The implementation both stacks serve: each call raises its event.</summary>
public sealed class InteropSensor : IInteropSensor
{
    public event EventHandler<Measurement>? Measured;

    public event EventHandler? Poked;

    public Task MeasureAsync(double value, string unit)
    {
        Measured?.Invoke(this, new Measurement(value, unit));
        return Task.CompletedTask;
    }

    public Task PokeAsync()
    {
        Poked?.Invoke(this, EventArgs.Empty);
        return Task.CompletedTask;
    }
}

/// <summary>What a proxy's events delivered: the first of each, with its sender, for bounded waits.</summary>
public sealed class SensorEvents
{
    private readonly TaskCompletionSource<(object? Sender, Measurement Args)> _measured = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource<(object? Sender, EventArgs Args)> _poked = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public SensorEvents(IInteropSensor proxy)
    {
        proxy.Measured += (sender, args) => _measured.TrySetResult((sender, args));
        proxy.Poked += (sender, args) => _poked.TrySetResult((sender, args));
    }

    public Task<(object? Sender, Measurement Args)> Measured => _measured.Task.WaitAsync(TimeSpan.FromSeconds(10));

    public Task<(object? Sender, EventArgs Args)> Poked => _poked.Task.WaitAsync(TimeSpan.FromSeconds(10));

    /// <summary>Calls the proxy's methods (which raise the events on the target) and checks what arrived.</summary>
    public async Task ExerciseAsync(IInteropSensor proxy)
    {
        await proxy.MeasureAsync(21.5, "C").WaitAsync(TimeSpan.FromSeconds(10));
        await proxy.PokeAsync().WaitAsync(TimeSpan.FromSeconds(10));

        var (sender, measurement) = await Measured;
        Assert.Same(proxy, sender);
        Assert.Equal(new Measurement(21.5, "C"), measurement);
        var (pokedBy, args) = await Poked;
        Assert.Same(proxy, pokedBy);
        Assert.NotNull(args);
    }
}
