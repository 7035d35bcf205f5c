namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The router's defaults, raised where the workload needs more: pending calls per connection above the window,
/// messages above the payload, connections above the workload's. The in-process and the standalone router get the same.
/// </summary>
internal readonly record struct RouterLimits(int MaxPendingCalls, int MaxMessageSize, int MaxConnections)
{
    public static RouterLimits For(LoadOptions options)
    {
        var defaults = new Server.JsonRpcRouterOptions();
        return new RouterLimits(
            Math.Max(defaults.MaxPendingCallsPerConnection, options.EffectiveWindow * 2),
            Math.Max(defaults.MaxMessageSize, (options.PayloadBytes * 2) + 4096),
            Math.Max(defaults.MaxConnections, options.Connections + options.Providers + 16));
    }
}
