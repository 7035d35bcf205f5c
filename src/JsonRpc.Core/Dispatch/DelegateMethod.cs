using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using System.Runtime.ExceptionServices;
using System.Text.Json;

namespace JsonRpc.Dispatch;

/// <summary>Binds params to a delegate's parameters by position or by their names, with reflection-based metadata.</summary>
[RequiresUnreferencedCode("Reflection-based binding.")]
[RequiresDynamicCode("Reflection-based binding.")]
internal sealed class DelegateParamsBinder : NamedParamsBinderBase<object?[]>
{
    private readonly ParameterInfo[] _parameters;
    private readonly JsonSerializerOptions _options;
    private readonly int[] _positions; // the handler's parameter for each bound argument (a CancellationToken is not one)

    public DelegateParamsBinder(ParameterInfo[] parameters, JsonSerializerOptions options)
        : base(NamesOf(parameters))
    {
        _parameters = parameters;
        _options = options;
        _positions = [.. Enumerable.Range(0, parameters.Length).Where(i => parameters[i].ParameterType != typeof(CancellationToken))];
    }

    public override object?[] Bind(ReadOnlyMemory<byte> memory)
    {
        var args = new object?[_parameters.Length];
        if (Count == 0)
        {
            NoParamsBinder.Instance.Bind(memory);
            return args;
        }

        ReadArguments(memory.Span, ref args);
        return args;
    }

    protected override void ReadArgument(ref Utf8JsonReader reader, int index, ref object?[] args)
    {
        var position = _positions[index];
        args[position] = JsonSerializer.Deserialize(ref reader, _options.GetTypeInfo(_parameters[position].ParameterType));
    }

    private static string[] NamesOf(ParameterInfo[] parameters)
    {
        var names = new List<string>();
        foreach (var parameter in parameters)
        {
            if (parameter.ParameterType != typeof(CancellationToken))
            {
                names.Add(parameter.Name ?? throw new ArgumentException("Every parameter of the handler needs a name."));
            }
        }

        return [.. names];
    }
}

/// <summary>Calls a delegate with bound arguments and awaits what it returns.</summary>
[RequiresUnreferencedCode("Reflection-based invocation.")]
[RequiresDynamicCode("Reflection-based invocation.")]
internal static class DelegateInvoker
{
    public static Func<object?[], CancellationToken, ValueTask<object?>> Create(Delegate handler)
    {
        var parameters = handler.Method.GetParameters();
        var tokenIndex = Array.FindIndex(parameters, static p => p.ParameterType == typeof(CancellationToken));
        return (args, cancellationToken) =>
        {
            if (tokenIndex >= 0)
            {
                args[tokenIndex] = cancellationToken;
            }

            object? returned;
            try
            {
                returned = handler.DynamicInvoke(args);
            }
            catch (TargetInvocationException ex) when (ex.InnerException is not null)
            {
                ExceptionDispatchInfo.Capture(ex.InnerException).Throw();
                throw;
            }

            return Unwrap(returned);
        };
    }

    private static ValueTask<object?> Unwrap(object? returned) => returned switch
    {
        Task task => AwaitTask(task),
        ValueTask valueTask => AwaitTask(valueTask.AsTask()),
        not null when IsGenericValueTask(returned.GetType()) => AwaitTask((Task)returned.GetType().GetMethod(nameof(ValueTask<int>.AsTask))!.Invoke(returned, null)!),
        _ => new ValueTask<object?>(returned),
    };

    private static bool IsGenericValueTask(Type type) => type.IsGenericType && type.GetGenericTypeDefinition() == typeof(ValueTask<>);

    private static async ValueTask<object?> AwaitTask(Task task)
    {
        await task.ConfigureAwait(false);
        var type = task.GetType();
        return type.IsGenericType && type.GetProperty(nameof(Task<int>.Result)) is { } result && result.PropertyType.Name != "VoidTaskResult"
            ? result.GetValue(task)
            : null;
    }
}
