using Microsoft.CodeAnalysis;

namespace JsonRpc.Generators;

/// <summary>The generator's diagnostics: errors for contract shapes it cannot turn into calls.</summary>
internal static class ContractDiagnostics
{
    private const string Category = "JsonRpc.Contracts";

    public static readonly DiagnosticDescriptor UnsupportedReturn = Error(
        "JSONRPC001", "Unsupported return type",
        "'{0}' returns '{1}': a JSON-RPC contract method must return Task, Task<T>, ValueTask, ValueTask<T> or IAsyncEnumerable<T>");

    public static readonly DiagnosticDescriptor RefParameter = Error(
        "JSONRPC002", "ref, out and in parameters are not supported",
        "Parameter '{1}' of '{0}' is passed by reference: JSON-RPC params go one way, by value");

    public static readonly DiagnosticDescriptor GenericMethod = Error(
        "JSONRPC003", "Generic methods are not supported",
        "'{0}' is generic: a contract method's types must be known when the code is generated");

    public static readonly DiagnosticDescriptor DuplicateWireName = Error(
        "JSONRPC004", "Two methods have the same wire name",
        "'{0}' has the wire name '{1}', as '{2}' has: give one of them another with [JsonRpcMethod(\"…\")] (overloads need distinct names)");

    public static readonly DiagnosticDescriptor GenericContract = Error(
        "JSONRPC005", "Generic contract interfaces are not supported",
        "'{0}' is generic: mark a non-generic interface [JsonRpcContract]");

    public static readonly DiagnosticDescriptor UnsupportedMember = Error(
        "JSONRPC006", "Unsupported contract member",
        "'{0}' is {1}: a JSON-RPC contract has methods and events only");

    public static readonly DiagnosticDescriptor UnsupportedParameter = Error(
        "JSONRPC007", "Unsupported parameter",
        "Parameter '{1}' of '{0}': {2}");

    public static readonly DiagnosticDescriptor NotASerializerContext = Error(
        "JSONRPC008", "Not a JsonSerializerContext",
        "'{1}' given to [JsonRpcContract] on '{0}' is not a JsonSerializerContext: give a [JsonSerializable] context class (source-generated)");

    public static readonly DiagnosticDescriptor InvalidWireName = Error(
        "JSONRPC009", "Invalid wire name",
        "'{0}' has the wire name '{1}': {2}");

    public static readonly DiagnosticDescriptor Inaccessible = Error(
        "JSONRPC010", "The contract is not accessible",
        "'{0}' is private or nested in a private type: the generated proxy and target must be able to name it");

    public static readonly DiagnosticDescriptor UnsupportedEvent = Error(
        "JSONRPC011", "Unsupported event type",
        "Event '{0}' is a '{1}': a contract event must be an EventHandler or EventHandler<T> (sent as a notification with params [args], as StreamJsonRpc does)");

    private static DiagnosticDescriptor Error(string id, string title, string message)
        => new(id, title, message, Category, DiagnosticSeverity.Error, isEnabledByDefault: true);
}
