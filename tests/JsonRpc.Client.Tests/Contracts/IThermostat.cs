using System.Text.Json.Serialization;
using JsonRpc.Contracts;

namespace JsonRpc.Client.Tests.Contracts;

/// <summary>A contract with events: a typed one, a plain one, and one with a wire name of its own.</summary>
[JsonRpcContract(typeof(ThermostatJson))]
public interface IThermostat
{
    Task SetAsync(double celsius, string room);

    event EventHandler<Reading>? Changed;

    event EventHandler? Reset;

    [JsonRpcMethod("thermostat.alarm")]
    event EventHandler<string>? Alarm;
}

public sealed record Reading(double Celsius, string Room);

[JsonSerializable(typeof(double))]
[JsonSerializable(typeof(string))]
[JsonSerializable(typeof(Reading))]
public sealed partial class ThermostatJson : JsonSerializerContext;

/// <summary>The implementation served in the tests: raises Changed on each SetAsync, the others on demand.</summary>
public sealed class Thermostat : IThermostat
{
    public event EventHandler<Reading>? Changed;

    public event EventHandler? Reset;

    public event EventHandler<string>? Alarm;

    /// <summary>How many handlers the served events have: what the host subscribed and has not unsubscribed yet.</summary>
    public int Handlers => (Changed?.GetInvocationList().Length ?? 0) + (Reset?.GetInvocationList().Length ?? 0) + (Alarm?.GetInvocationList().Length ?? 0);

    public Task SetAsync(double celsius, string room)
    {
        Changed?.Invoke(this, new Reading(celsius, room));
        return Task.CompletedTask;
    }

    public void RaiseReset() => Reset?.Invoke(this, EventArgs.Empty);

    public void RaiseAlarm(string why) => Alarm?.Invoke(this, why);
}

/// <summary>Collects what a proxy's event delivers, for bounded waits.</summary>
public sealed class EventRecorder<T>
{
    private readonly List<(object? Sender, T Args)> _seen = [];
    private TaskCompletionSource _next = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public void Record(object? sender, T args)
    {
        TaskCompletionSource next;
        lock (_seen)
        {
            _seen.Add((sender, args));
            next = _next;
            _next = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        }

        next.TrySetResult();
    }

    public int Count
    {
        get
        {
            lock (_seen)
            {
                return _seen.Count;
            }
        }
    }

    /// <summary>The <paramref name="count"/>th event (1-based), waiting at most 10 seconds for it.</summary>
    public async Task<(object? Sender, T Args)> WaitAsync(int count = 1)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(10);
        while (true)
        {
            Task next;
            lock (_seen)
            {
                if (_seen.Count >= count)
                {
                    return _seen[count - 1];
                }

                next = _next.Task;
            }

            var left = deadline - DateTime.UtcNow;
            await next.WaitAsync(left > TimeSpan.Zero ? left : TimeSpan.Zero);
        }
    }
}
