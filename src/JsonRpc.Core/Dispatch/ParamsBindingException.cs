namespace JsonRpc.Dispatch;

/// <summary>The params of a call do not fit the method: answered with Invalid params (-32602).</summary>
internal sealed class ParamsBindingException(string message) : Exception(message);
