using System.ComponentModel;
using System.Runtime.CompilerServices;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Dispatch;
using JsonRpc.Protocol;

namespace JsonRpc.Contracts;

/// <summary>
/// What the code generated for <see cref="JsonRpcContractAttribute"/> interfaces calls: metadata look-ups, the
/// registration of each contract (from a module initializer, so that <c>AddTarget&lt;T&gt;</c> finds it without
/// reflection) and small adapters. Not for hand-written code.
/// </summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public static partial class JsonRpcContractSupport
{
    /// <summary>The metadata of <typeparamref name="T"/> from <paramref name="options"/>, or a message that says where it is missing.</summary>
    /// <exception cref="InvalidOperationException">The options have no metadata for the type.</exception>
    public static JsonTypeInfo<T> GetTypeInfo<T>(JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        try
        {
            return (JsonTypeInfo<T>)options.GetTypeInfo(typeof(T));
        }
        catch (Exception ex) when (ex is NotSupportedException or InvalidOperationException)
        {
            throw new InvalidOperationException(
                $"The contract's serializer options have no metadata for '{typeof(T)}': add [JsonSerializable(typeof({typeof(T).Name}))] to the contract's JsonSerializerContext.", ex);
        }
    }

    /// <summary>The metadata of a generated params type, read and written by its generated converter.</summary>
    public static JsonTypeInfo<TArgs> CreateArgsInfo<TArgs>(JsonSerializerOptions options, JsonConverter<TArgs> converter)
        => JsonMetadataServices.CreateValueInfo<TArgs>(options, converter);

    /// <summary>Metadata that reads any result and keeps nothing: for methods that return <see cref="Task"/> or <see cref="ValueTask"/>.</summary>
    public static JsonTypeInfo<bool> IgnoredResult(JsonSerializerOptions options)
        => JsonMetadataServices.CreateValueInfo<bool>(options, IgnoredResultConverter.Instance);

    /// <summary>The error a generated params converter throws for params that do not fit the method (answered -32602).</summary>
    public static JsonException ParamsMismatch(string method, string detail) => new($"'{method}': {detail}");

    /// <summary>Reads an <see cref="IProgress{T}"/> argument as StreamJsonRpc sends it: an integer token, or null for none.</summary>
    /// <exception cref="JsonException">Neither.</exception>
    public static long? ReadProgressToken(ref Utf8JsonReader reader) => reader.TokenType switch
    {
        JsonTokenType.Null => null,
        JsonTokenType.Number when reader.TryGetInt64(out var token) => token,
        _ => throw new JsonException("A progress token must be an integer or null."),
    };

    /// <summary>Writes an <see cref="IProgress{T}"/> argument's token, or null for none.</summary>
    public static void WriteProgressToken(Utf8JsonWriter writer, long? token)
    {
        ArgumentNullException.ThrowIfNull(writer);
        if (token is { } value)
        {
            writer.WriteNumberValue(value);
        }
        else
        {
            writer.WriteNullValue();
        }
    }

    /// <summary>
    /// Binds the params of a method that returns a stream (served on raw params): params that do not fit are answered
    /// Invalid params (-32602), as for every other method.
    /// </summary>
    /// <exception cref="JsonRpcMethodException">The params do not fit.</exception>
    public static TArgs BindStreamParams<TArgs>(RawJson @params, JsonTypeInfo<TArgs> argsType, string method)
    {
        ArgumentNullException.ThrowIfNull(argsType);
        try
        {
            return argsType.Converter is JsonRpcContractArgsConverter<TArgs> contract
                ? contract.ReadParams(@params.Span, argsType.Options)
                : JsonSerializer.Deserialize(@params.IsEmpty ? "null"u8 : @params.Span, argsType)!;
        }
        catch (Exception ex) when (ex is JsonException or ParamsBindingException or InvalidOperationException)
        {
            throw new JsonRpcMethodException(JsonRpcErrorCodes.InvalidParams, "Invalid params", DispatchWriter.Detail($"'{method}': {ex.Message}"), ex);
        }
    }

    /// <summary>A task that completes as <paramref name="pending"/> does, without its result.</summary>
    public static ValueTask AsVoid(ValueTask<bool> pending)
    {
        if (pending.IsCompletedSuccessfully)
        {
            return default;
        }

        return Awaited(pending);

        static async ValueTask Awaited(ValueTask<bool> pending) => await pending.ConfigureAwait(false);
    }

    /// <summary>
    /// The sequence <paramref name="open"/> makes, given the token of its enumeration (the one that an abort, the end
    /// of the call or a lost connection cancels), for contract methods that take a <see cref="CancellationToken"/>.
    /// </summary>
    public static async IAsyncEnumerable<T> WithCancellation<T>(Func<CancellationToken, IAsyncEnumerable<T>> open, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(open);
        await foreach (var value in open(cancellationToken).WithCancellation(cancellationToken).ConfigureAwait(false))
        {
            yield return value;
        }
    }

    /// <summary>Registers the generated dispatcher registration of <typeparamref name="TContract"/> (called from a module initializer).</summary>
    /// <param name="defaultOptions">The options of the contract's <c>JsonSerializerContext</c>, or null when it names none.</param>
    /// <param name="addTarget">Adds an implementation's methods to a dispatcher and subscribes to its events; returns what undoes both.</param>
    public static void RegisterDispatcherTarget<TContract>(Func<JsonSerializerOptions>? defaultOptions, Func<JsonRpcDispatcher, TContract, JsonSerializerOptions, IDisposable> addTarget)
        where TContract : class
    {
        ArgumentNullException.ThrowIfNull(addTarget);
        DispatcherTargets<TContract>.DefaultOptions = defaultOptions;
        DispatcherTargets<TContract>.AddTarget = addTarget;
    }

    /// <summary>The message for a type that has no generated contract code.</summary>
    public static string NotAContract(Type type)
        => $"'{type}' has no generated JSON-RPC contract code: mark the interface [JsonRpcContract] and reference the JsonRpc.Client package (its source generator).";

    // One static slot per contract type: found without a dictionary or reflection.
    internal static class DispatcherTargets<TContract>
        where TContract : class
    {
        public static Func<JsonSerializerOptions>? DefaultOptions;
        public static Func<JsonRpcDispatcher, TContract, JsonSerializerOptions, IDisposable>? AddTarget;
    }

    private sealed class IgnoredResultConverter : JsonConverter<bool>
    {
        public static readonly IgnoredResultConverter Instance = new();

        public override bool HandleNull => true;

        public override bool Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
        {
            reader.Skip();
            return true;
        }

        public override void Write(Utf8JsonWriter writer, bool value, JsonSerializerOptions options) => writer.WriteNullValue();
    }
}
