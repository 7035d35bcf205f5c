using System.Diagnostics.CodeAnalysis;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Protocol;

namespace JsonRpc.Dispatch;

public sealed partial class JsonRpcDispatcher
{
    private const string ReflectionMessage = "Binds with reflection-based serialization; use the overload that takes JsonTypeInfo for trimming and AOT.";

    /// <summary>Adds a method that takes no params.</summary>
    /// <exception cref="ArgumentException">A method of that name is already registered.</exception>
    public JsonRpcDispatcher Add<TResult>(string method, Func<CancellationToken, ValueTask<TResult>> handler, JsonTypeInfo<TResult> result)
    {
        ArgumentNullException.ThrowIfNull(handler);
        return Register(new DispatchMethod<bool, TResult>(Name(method), NoParamsBinder.Instance, (_, ct) => handler(ct), Result(result)) { Shape = MethodShape.Named([], result) });
    }

    /// <summary>Adds a synchronous method that takes no params.</summary>
    public JsonRpcDispatcher Add<TResult>(string method, Func<TResult> handler, JsonTypeInfo<TResult> result)
    {
        ArgumentNullException.ThrowIfNull(handler);
        return Register(new DispatchMethod<bool, TResult>(Name(method), NoParamsBinder.Instance, (_, _) => new ValueTask<TResult>(handler()), Result(result)) { Shape = MethodShape.Named([], result) });
    }

    /// <summary>Adds a method whose whole params value (an object or an array) binds to <typeparamref name="TParams"/>.</summary>
    public JsonRpcDispatcher Add<TParams, TResult>(string method, Func<TParams, CancellationToken, ValueTask<TResult>> handler, JsonTypeInfo<TParams> parameters, JsonTypeInfo<TResult> result)
    {
        ArgumentNullException.ThrowIfNull(handler);
        ArgumentNullException.ThrowIfNull(parameters);
        return Register(new DispatchMethod<TParams, TResult>(Name(method), new WholeParamsBinder<TParams>(parameters), handler, Result(result)) { Shape = MethodShape.Whole(parameters, result) });
    }

    /// <summary>Adds a synchronous method whose whole params value binds to <typeparamref name="TParams"/>.</summary>
    public JsonRpcDispatcher Add<TParams, TResult>(string method, Func<TParams, TResult> handler, JsonTypeInfo<TParams> parameters, JsonTypeInfo<TResult> result)
    {
        ArgumentNullException.ThrowIfNull(handler);
        ArgumentNullException.ThrowIfNull(parameters);
        return Register(new DispatchMethod<TParams, TResult>(Name(method), new WholeParamsBinder<TParams>(parameters), (p, _) => new ValueTask<TResult>(handler(p)), Result(result)) { Shape = MethodShape.Whole(parameters, result) });
    }

    /// <summary>
    /// Adds a method with two parameters, bound by position (<c>[a, b]</c>) or by name (<c>{"name1": a, "name2": b}</c>).
    /// </summary>
    public JsonRpcDispatcher Add<T1, T2, TResult>(
        string method,
        string name1,
        string name2,
        Func<T1, T2, CancellationToken, ValueTask<TResult>> handler,
        JsonTypeInfo<T1> type1,
        JsonTypeInfo<T2> type2,
        JsonTypeInfo<TResult> result)
    {
        ArgumentNullException.ThrowIfNull(handler);
        var binder = new NamedParamsBinder<T1, T2>(name1, name2, type1, type2);
        return Register(new DispatchMethod<(T1, T2), TResult>(Name(method), binder, (a, ct) => handler(a.Item1, a.Item2, ct), Result(result)) { Shape = MethodShape.Named([(name1, type1), (name2, type2)], result) });
    }

    /// <summary>Adds a synchronous method with two parameters, bound by position or by name.</summary>
    public JsonRpcDispatcher Add<T1, T2, TResult>(
        string method,
        string name1,
        string name2,
        Func<T1, T2, TResult> handler,
        JsonTypeInfo<T1> type1,
        JsonTypeInfo<T2> type2,
        JsonTypeInfo<TResult> result)
    {
        ArgumentNullException.ThrowIfNull(handler);
        var binder = new NamedParamsBinder<T1, T2>(name1, name2, type1, type2);
        return Register(new DispatchMethod<(T1, T2), TResult>(Name(method), binder, (a, _) => new ValueTask<TResult>(handler(a.Item1, a.Item2)), Result(result)) { Shape = MethodShape.Named([(name1, type1), (name2, type2)], result) });
    }

    /// <summary>Adds a method with three parameters, bound by position or by name.</summary>
    public JsonRpcDispatcher Add<T1, T2, T3, TResult>(
        string method,
        string name1,
        string name2,
        string name3,
        Func<T1, T2, T3, CancellationToken, ValueTask<TResult>> handler,
        JsonTypeInfo<T1> type1,
        JsonTypeInfo<T2> type2,
        JsonTypeInfo<T3> type3,
        JsonTypeInfo<TResult> result)
    {
        ArgumentNullException.ThrowIfNull(handler);
        var binder = new NamedParamsBinder<T1, T2, T3>(name1, name2, name3, type1, type2, type3);
        return Register(new DispatchMethod<(T1, T2, T3), TResult>(Name(method), binder, (a, ct) => handler(a.Item1, a.Item2, a.Item3, ct), Result(result)) { Shape = MethodShape.Named([(name1, type1), (name2, type2), (name3, type3)], result) });
    }

    /// <summary>
    /// Adds a method that works on raw JSON: it gets the params exactly as sent (<see cref="RawJson.IsEmpty"/> when
    /// absent; valid until its task completes) and returns the result's JSON (<see cref="RawJson.Null"/> for null).
    /// </summary>
    public JsonRpcDispatcher AddRaw(string method, Func<RawJson, CancellationToken, ValueTask<RawJson>> handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        return Register(new DispatchMethod<RawJson, RawJson>(Name(method), RawParamsBinder.Instance, handler, RawResultWriter.Instance));
    }

    /// <summary>
    /// Adds a method with no result, typically the target of notifications; a request to it is answered with
    /// <c>"result": null</c> once the handler completes.
    /// </summary>
    public JsonRpcDispatcher AddNotification<TParams>(string method, Func<TParams, CancellationToken, ValueTask> handler, JsonTypeInfo<TParams> parameters)
    {
        ArgumentNullException.ThrowIfNull(handler);
        ArgumentNullException.ThrowIfNull(parameters);
        return Register(new DispatchMethod<TParams, bool>(Name(method), new WholeParamsBinder<TParams>(parameters), (p, ct) => AsBool(handler(p, ct)), NullResultWriter<bool>.Instance) { Shape = MethodShape.Whole(parameters, null) });
    }

    /// <summary>
    /// Adds a method from any delegate, binding its parameters by position or by their names with reflection-based
    /// serialization (<see cref="JsonRpcDispatcherOptions.SerializerOptions"/>). A <see cref="CancellationToken"/>
    /// parameter gets the call's token; a <see cref="Task"/>, <see cref="Task{TResult}"/>, <see cref="ValueTask"/> or
    /// <see cref="ValueTask{TResult}"/> result is awaited.
    /// </summary>
    /// <example><c>dispatcher.Add("subtract", (int minuend, int subtrahend) => minuend - subtrahend);</c></example>
    [RequiresUnreferencedCode(ReflectionMessage)]
    [RequiresDynamicCode(ReflectionMessage)]
    public JsonRpcDispatcher Add(string method, Delegate handler)
    {
        ArgumentNullException.ThrowIfNull(handler);
        return Register(new DispatchMethod<object?[], object?>(
            Name(method),
            new DelegateParamsBinder(handler.Method.GetParameters(), ReflectionOptions),
            DelegateInvoker.Create(handler),
            new TypeInfoResultWriter<object?>((JsonTypeInfo<object?>)ReflectionOptions.GetTypeInfo(typeof(object))))
        {
            Shape = MethodShape.FromDelegate(handler.Method, ReflectionOptions),
        });
    }

    /// <summary>The configured serializer options, with the reflection resolver when they name none.</summary>
    private JsonSerializerOptions ReflectionOptions
    {
        [RequiresUnreferencedCode(ReflectionMessage)]
        [RequiresDynamicCode(ReflectionMessage)]
        get
        {
            if (_reflectionOptions is null)
            {
                var options = Options.SerializerOptions;
                if (options.TypeInfoResolver is null)
                {
                    options = new JsonSerializerOptions(options) { TypeInfoResolver = new DefaultJsonTypeInfoResolver() };
                }

                options.MakeReadOnly();
                _reflectionOptions = options;
            }

            return _reflectionOptions;
        }
    }

    private JsonSerializerOptions? _reflectionOptions;

    private static async ValueTask<bool> AsBool(ValueTask pending)
    {
        await pending.ConfigureAwait(false);
        return true;
    }

    private static TypeInfoResultWriter<T> Result<T>(JsonTypeInfo<T> result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return new TypeInfoResultWriter<T>(result);
    }

    private static string Name(string method)
    {
        ArgumentNullException.ThrowIfNull(method);
        if (method == JsonRpcProtocolMethods.CancelRequest)
        {
            throw new ArgumentException(
                $"'{method}' is the protocol's cancellation notification; a JsonRpcCancellationScope handles it.", nameof(method));
        }

        if (method is EnumeratorNext or EnumeratorAbort)
        {
            throw new ArgumentException($"'{method}' pulls or aborts the async enumerables the dispatcher serves (AddStream).", nameof(method));
        }

        return method;
    }
}
