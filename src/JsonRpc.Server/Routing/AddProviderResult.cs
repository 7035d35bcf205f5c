namespace JsonRpc.Server.Routing;

/// <summary>What came of a <c>register_method</c>.</summary>
internal enum AddProviderResult
{
    Added,
    TooManyRoutes,
    Conflict,
}
