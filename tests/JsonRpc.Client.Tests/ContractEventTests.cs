using System.Net;
using System.Net.Sockets;
using JsonRpc.Client.Tests.Contracts;
using JsonRpc.Client.Tests.Infrastructure;
using JsonRpc.Dispatch;
using JsonRpc.Protocol;

namespace JsonRpc.Client.Tests;

/// <summary>
/// Contract events end to end: an event raised on a served implementation reaches a proxy's handlers through the real
/// router (published by the provider, subscribed to by the proxy) and directly from a dispatcher serving a socket.
/// </summary>
public sealed class ContractEventTests
{
    [Fact]
    public async Task Attach_EventRaisedOnProviderTarget_ReachesProxyThroughRouter()
    {
        await using var rig = await Rig.StartAsync();
        var (router, target, consumer) = (rig.Router, rig.Target, rig.Consumer);
        var thermostat = consumer.Attach<IThermostat>();
        var changed = new EventRecorder<Reading>();
        var reset = new EventRecorder<EventArgs>();
        var alarm = new EventRecorder<string>();
        thermostat.Changed += changed.Record;
        thermostat.Reset += reset.Record;
        thermostat.Alarm += alarm.Record;
        await Eventually.TrueAsync(() => router.Router.GetStats().Subscriptions == 3, "the proxy subscribes to its three events at the router");

        await thermostat.SetAsync(21.5, "kitchen").Within();
        target.RaiseReset();
        target.RaiseAlarm("too hot");

        var (sender, reading) = await changed.WaitAsync();
        Assert.Same(thermostat, sender);
        Assert.Equal(new Reading(21.5, "kitchen"), reading);
        Assert.Same(EventArgs.Empty, (await reset.WaitAsync()).Args);
        Assert.Equal("too hot", (await alarm.WaitAsync()).Args);
    }

    [Fact]
    public async Task Attach_HandlerAddedBeforeRegistering_IsSubscribedOnceRegisterReturns_AndUnsubscribedWithTheLastHandler()
    {
        await using var rig = await Rig.StartAsync(registerConsumer: false);
        var (router, consumer) = (rig.Router, rig.Consumer);
        var thermostat = consumer.Attach<IThermostat>();
        var first = new EventRecorder<Reading>();
        var second = new EventRecorder<Reading>();
        thermostat.Changed += first.Record;
        thermostat.Changed += second.Record;

        await consumer.RegisterAsync("consumer").Within();
        Assert.Equal(1, router.Router.GetStats().Subscriptions);
        await thermostat.SetAsync(1, "hall").Within();
        await first.WaitAsync();
        await second.WaitAsync();

        thermostat.Changed -= first.Record;
        Assert.Equal(1, router.Router.GetStats().Subscriptions);
        thermostat.Changed -= second.Record;
        await Eventually.TrueAsync(() => router.Router.GetStats().Subscriptions == 0, "the last handler removed unsubscribes");
    }

    [Fact]
    public async Task Attach_HandlerThrows_IsLogged_AndTheConnectionAndLaterEventsGoOn()
    {
        var logs = new CapturingLoggerProvider();
        using var loggerFactory = new Microsoft.Extensions.Logging.LoggerFactory([logs]);
        await using var rig = await Rig.StartAsync(consumerOptions: new JsonRpcClientOptions { LoggerFactory = loggerFactory });
        var (router, consumer) = (rig.Router, rig.Consumer);
        var thermostat = consumer.Attach<IThermostat>();
        var seen = new EventRecorder<Reading>();
        thermostat.Changed += (sender, reading) =>
        {
            seen.Record(sender, reading);
            if (reading.Room == "a")
            {
                throw new InvalidOperationException("handler bug");
            }
        };
        await Eventually.TrueAsync(() => router.Router.GetStats().Subscriptions == 1, "the proxy subscribes at the router");

        await thermostat.SetAsync(1, "a").Within();
        await thermostat.SetAsync(2, "b").Within();

        Assert.Equal(new Reading(2, "b"), (await seen.WaitAsync(2)).Args);
        Assert.Equal(JsonRpcClientState.Connected, consumer.State);
        Assert.Contains(logs.Messages, message => message.Contains("'Changed' threw", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Attach_RouterRestarts_ProxySubscriptionIsRestoredWithTheRegistration()
    {
        var router = await RouterHost.StartAsync();
        var port = router.Port;
        var options = new JsonRpcClientOptions { Reconnect = { InitialDelay = TimeSpan.FromMilliseconds(50), MaxDelay = TimeSpan.FromMilliseconds(200) } };
        var target = new Thermostat();
        await using var provider = await router.ConnectAsync(options);
        provider.AddTarget<IThermostat>(target);
        await provider.RegisterAsync("thermostat").Within();
        await using var consumer = await router.ConnectAsync(options);
        await consumer.RegisterAsync("consumer").Within();
        var thermostat = consumer.Attach<IThermostat>();
        var changed = new EventRecorder<Reading>();
        thermostat.Changed += changed.Record;
        await Eventually.TrueAsync(() => router.Router.GetStats().Subscriptions == 1, "the proxy subscribes at the router");

        await router.DisposeAsync();
        await Eventually.TrueAsync(() => consumer.State == JsonRpcClientState.Reconnecting, "the consumer noticed the loss");
        await using var restarted = await RouterHost.StartAsync(port: port);
        await Eventually.TrueAsync(
            () => provider.State == JsonRpcClientState.Connected && consumer.State == JsonRpcClientState.Connected && restarted.Router.GetStats().Subscriptions == 1,
            "both reconnected, the proxy's subscription restored");

        await thermostat.SetAsync(5, "after restart").Within();
        Assert.Equal(new Reading(5, "after restart"), (await changed.WaitAsync()).Args);
    }

    [Fact]
    public async Task AddTarget_DispatcherServingSockets_SendsEventsToEachConnection_UntilRemoveTarget()
    {
        var dispatcher = new JsonRpcDispatcher();
        var target = new Thermostat();
        dispatcher.AddTarget<IThermostat>(target).Add("ping", () => 1, TestJsonContext.Default.Int32);
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        using var stop = new CancellationTokenSource();
        var serving = ServeAsync(dispatcher, listener, 2, stop.Token);
        var options = new JsonRpcClientOptions { KeepAliveInterval = Timeout.InfiniteTimeSpan };
        await using var one = await JsonRpcClient.ConnectAsync("127.0.0.1", port, options).Within();
        await using var two = await JsonRpcClient.ConnectAsync("127.0.0.1", port, options).Within();
        var first = new EventRecorder<Reading>();
        var second = new EventRecorder<Reading>();
        one.Attach<IThermostat>().Changed += first.Record;
        two.Attach<IThermostat>().Changed += second.Record;
        // Both connections are served once each has had a call answered.
        Assert.Equal(1, await one.CallAsync("ping", default, TestJsonContext.Default.Int32).Within());
        Assert.Equal(1, await two.CallAsync("ping", default, TestJsonContext.Default.Int32).Within());

        target.RaiseAlarm("ignored: nobody listens to the alarm");
        await target.SetAsync(18, "attic");

        Assert.Equal(new Reading(18, "attic"), (await first.WaitAsync()).Args);
        Assert.Equal(new Reading(18, "attic"), (await second.WaitAsync()).Args);

        Assert.True(dispatcher.RemoveTarget(target));
        Assert.Equal(0, target.Handlers);
        Assert.False(dispatcher.Contains("SetAsync"));
        Assert.False(dispatcher.RemoveTarget(target));
        await stop.CancelAsync();
        await serving.Within();
    }

    [Fact]
    public async Task AddTarget_ClientDisposed_UnsubscribesFromTheTarget()
    {
        await using var router = await RouterHost.StartAsync();
        var target = new Thermostat();
        var provider = await router.ConnectAsync();
        provider.AddTarget<IThermostat>(target);
        Assert.Equal(3, target.Handlers);

        await provider.DisposeAsync();

        Assert.Equal(0, target.Handlers);
        target.RaiseReset(); // nothing to send to, and no exception back
    }

    [Fact]
    public async Task RouterAddTarget_EventsArePublishedToSubscribedProxies_AndTheNameCheckLetsGoOfTheTarget()
    {
        await using var router = await RouterHost.StartAsync();
        var target = new Thermostat();
        router.Router.AddTarget<IThermostat>(target);
        await using var consumer = await router.ConnectAsync();
        await consumer.RegisterAsync("consumer").Within();
        var thermostat = consumer.Attach<IThermostat>();
        var changed = new EventRecorder<Reading>();
        thermostat.Changed += changed.Record;
        await Eventually.TrueAsync(() => router.Router.GetStats().Subscriptions == 1, "the proxy subscribes at the router");

        await thermostat.SetAsync(30, "server room").Within();

        var (sender, reading) = await changed.WaitAsync();
        Assert.Same(thermostat, sender);
        Assert.Equal(new Reading(30, "server room"), reading);
        Assert.Equal(1, router.Router.GetStats().EventsDelivered);

        // The router's own dispatcher holds the target; the throwaway one that found the contract's names does not.
        Assert.Equal(3, target.Handlers);
        Assert.True(router.Router.Methods.RemoveTarget(target));
        Assert.Equal(0, target.Handlers);
    }

    [Fact]
    public async Task Attach_EventWithParamsThatDoNotFit_IsSkipped_AndLaterEventsArrive()
    {
        await using var router = await RouterHost.StartAsync();
        await using var publisher = await router.ConnectAsync();
        await publisher.RegisterAsync("publisher").Within();
        await using var consumer = await router.ConnectAsync();
        await consumer.RegisterAsync("consumer").Within();
        var alarm = new EventRecorder<string>();
        consumer.Attach<IThermostat>().Alarm += alarm.Record;
        await Eventually.TrueAsync(() => router.Router.GetStats().Subscriptions == 1, "the proxy subscribes at the router");

        // A hand-written publisher on the same wire: [args] as StreamJsonRpc sends it, or {"args": …} by name.
        await publisher.PublishAsync("thermostat.alarm", RawJson.Parse("{\"other\":1}")).Within();
        await publisher.PublishAsync("thermostat.alarm", RawJson.Parse("[\"by position\"]")).Within();
        await publisher.PublishAsync("thermostat.alarm", RawJson.Parse("{\"args\":\"by name\"}")).Within();

        Assert.Equal("by position", (await alarm.WaitAsync(1)).Args);
        Assert.Equal("by name", (await alarm.WaitAsync(2)).Args);
    }

    /// <summary>A router, a provider serving a <see cref="Thermostat"/> as "thermostat", and a consumer to attach.</summary>
    private sealed class Rig : IAsyncDisposable
    {
        private Rig(RouterHost router, Thermostat target, JsonRpcClient provider, JsonRpcClient consumer)
            => (Router, Target, Provider, Consumer) = (router, target, provider, consumer);

        public RouterHost Router { get; }

        public Thermostat Target { get; }

        public JsonRpcClient Provider { get; }

        public JsonRpcClient Consumer { get; }

        public static async Task<Rig> StartAsync(bool registerConsumer = true, JsonRpcClientOptions? consumerOptions = null)
        {
            var router = await RouterHost.StartAsync();
            var target = new Thermostat();
            var provider = await router.ConnectAsync();
            provider.AddTarget<IThermostat>(target);
            await provider.RegisterAsync("thermostat").Within();
            var consumer = await router.ConnectAsync(consumerOptions);
            if (registerConsumer)
            {
                await consumer.RegisterAsync("consumer").Within();
            }

            return new Rig(router, target, provider, consumer);
        }

        public async ValueTask DisposeAsync()
        {
            await Consumer.DisposeAsync();
            await Provider.DisposeAsync();
            await Router.DisposeAsync();
        }
    }

    private static async Task ServeAsync(JsonRpcDispatcher dispatcher, TcpListener listener, int connections, CancellationToken cancellationToken)
    {
        var served = new List<Task>();
        for (var i = 0; i < connections; i++)
        {
            var socket = await listener.AcceptSocketAsync(cancellationToken);
            served.Add(Task.Run(async () =>
            {
                using (socket)
                await using (var stream = new NetworkStream(socket))
                {
                    await dispatcher.ServeAsync(stream, cancellationToken: cancellationToken);
                }
            }, CancellationToken.None));
        }

        await Task.WhenAll(served);
    }
}
