using System.Buffers.Text;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Contracts;
using JsonRpc.Protocol;

namespace JsonRpc.Dispatch;

/// <summary>Turns a call's params (empty when absent) into the handler's arguments; throws to answer Invalid params.</summary>
internal abstract class ParamsBinder<TArgs>
{
    public abstract TArgs Bind(ReadOnlyMemory<byte> parameters);
}

/// <summary>No params: accepts absent, <c>[]</c> and <c>{}</c>.</summary>
internal sealed class NoParamsBinder : ParamsBinder<bool>
{
    public static readonly NoParamsBinder Instance = new();

    public override bool Bind(ReadOnlyMemory<byte> parameters)
    {
        if (!parameters.IsEmpty && !IsEmptyContainer(parameters.Span))
        {
            throw new ParamsBindingException("This method takes no params.");
        }

        return true;
    }

    private static bool IsEmptyContainer(ReadOnlySpan<byte> json)
    {
        var reader = new Utf8JsonReader(json);
        reader.Read();
        var start = reader.TokenType;
        reader.Read();
        return (start, reader.TokenType) is (JsonTokenType.StartArray, JsonTokenType.EndArray) or (JsonTokenType.StartObject, JsonTokenType.EndObject);
    }
}

/// <summary>
/// The whole params value binds to one type (a class for named params, an array or list for positional ones); a
/// contract's generated params type is read by its converter alone, without entering the serializer.
/// </summary>
internal sealed class WholeParamsBinder<T>(JsonTypeInfo<T> typeInfo) : ParamsBinder<T>
{
    private readonly JsonRpcContractArgsConverter<T>? _contract = typeInfo.Converter as JsonRpcContractArgsConverter<T>;

    public override T Bind(ReadOnlyMemory<byte> parameters) => _contract is { } contract
        ? contract.ReadParams(parameters.Span, typeInfo.Options)
        : JsonSerializer.Deserialize(parameters.IsEmpty ? "null"u8 : parameters.Span, typeInfo)!;
}

/// <summary>The raw params, untouched.</summary>
internal sealed class RawParamsBinder : ParamsBinder<RawJson>
{
    public static readonly RawParamsBinder Instance = new();

    // A view of the caller's message: valid until the handler's task completes. Detach() to keep it longer.
    public override RawJson Bind(ReadOnlyMemory<byte> parameters) => RawJson.FromTrustedUtf8(parameters);
}

/// <summary>
/// Binds params to N named parameters in one pass of a reader over them: by position from an array (exactly N
/// elements) or by name from an object (every name present; other members are ignored).
/// </summary>
/// <typeparam name="TArgs">What the arguments are gathered in: a tuple, or an array.</typeparam>
internal abstract class NamedParamsBinderBase<TArgs> : ParamsBinder<TArgs>
{
    private readonly byte[][] _names;
    private readonly string _signature;

    protected int Count => _names.Length;

    protected NamedParamsBinderBase(string[] names)
    {
        if (names.Length > 64)
        {
            throw new ArgumentException("A method can bind at most 64 parameters.", nameof(names));
        }

        _names = new byte[names.Length][];
        for (var i = 0; i < names.Length; i++)
        {
            ArgumentException.ThrowIfNullOrEmpty(names[i]);
            _names[i] = Encoding.UTF8.GetBytes(names[i]);
        }

        _signature = string.Join(", ", names);
    }

    /// <summary>
    /// Reads the argument at <paramref name="index"/> from one scalar JSON token (a number, a literal, or a string
    /// without escapes, quotes included), as <see cref="ReadArgument"/> would; false when only the reader can say.
    /// </summary>
    protected virtual bool TryReadArgument(ReadOnlySpan<byte> token, int index, ref TArgs args) => false;

    /// <summary>
    /// Binds without a <see cref="Utf8JsonReader"/> when every argument is a scalar the parameter's type takes
    /// directly. <paramref name="parameters"/> has been checked by the message reader, so the tokens only need to be
    /// told apart; anything this does not handle simply (escapes, nested values, unknown members, any mismatch)
    /// returns false, and the reader path binds or reports it. A caller's unchecked bytes never make it misbehave:
    /// every index is bounds-checked and anything unexpected returns false.
    /// </summary>
    protected bool TryReadArgumentsDirect(ReadOnlySpan<byte> parameters, ref TArgs args)
    {
        var count = _names.Length;
        var at = ValidatedJson.SkipWhitespace(parameters, 0);
        if (at >= parameters.Length || count == 0)
        {
            return false;
        }

        var isArray = parameters[at] == (byte)'[';
        if (!isArray && parameters[at] != (byte)'{')
        {
            return false;
        }

        var seen = 0UL;
        var index = 0;
        at = ValidatedJson.SkipWhitespace(parameters, at + 1);
        while (true)
        {
            if (isArray)
            {
                if (index == count)
                {
                    return false;
                }
            }
            else
            {
                if (!ValidatedJson.TryReadPlainString(parameters, ref at, out var name))
                {
                    return false;
                }

                index = IndexOf(name[1..^1]);
                at = ValidatedJson.SkipWhitespace(parameters, at);
                if (index < 0 || at >= parameters.Length || parameters[at] != (byte)':')
                {
                    return false;
                }

                at = ValidatedJson.SkipWhitespace(parameters, at + 1);
            }

            if (!ValidatedJson.TryReadScalar(parameters, ref at, out var token) || !TryReadArgument(token, index, ref args))
            {
                return false;
            }

            seen |= 1UL << index;
            index++;
            at = ValidatedJson.SkipWhitespace(parameters, at);
            if (at >= parameters.Length)
            {
                return false;
            }

            if (parameters[at] != (byte)',')
            {
                var all = count == 64 ? ulong.MaxValue : (1UL << count) - 1;
                return parameters[at] == (isArray ? (byte)']' : (byte)'}') && seen == all;
            }

            at = ValidatedJson.SkipWhitespace(parameters, at + 1);
        }
    }

    private int IndexOf(ReadOnlySpan<byte> name)
    {
        for (var i = 0; i < _names.Length; i++)
        {
            if (name.SequenceEqual(_names[i]))
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>Reads the argument at <paramref name="index"/> from the value the reader is on, into <paramref name="args"/>.</summary>
    /// <remarks>Leaves the reader on the value's last token.</remarks>
    protected abstract void ReadArgument(ref Utf8JsonReader reader, int index, ref TArgs args);

    /// <summary>Reads every argument from <paramref name="parameters"/> into <paramref name="args"/>.</summary>
    protected void ReadArguments(ReadOnlySpan<byte> parameters, ref TArgs args)
    {
        var count = _names.Length;
        if (parameters.IsEmpty)
        {
            throw new ParamsBindingException($"Expected params ({_signature}).");
        }

        var reader = new Utf8JsonReader(parameters);
        reader.Read();
        if (reader.TokenType == JsonTokenType.StartArray)
        {
            var index = 0;
            while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
            {
                if (index == count)
                {
                    throw new ParamsBindingException($"Too many params: expected {count} ({_signature}).");
                }

                ReadArgument(ref reader, index++, ref args);
            }

            if (index != count)
            {
                throw new ParamsBindingException($"Too few params: expected {count} ({_signature}).");
            }

            return;
        }

        var seen = 0UL;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var index = -1;
            for (var i = 0; i < count; i++)
            {
                if (reader.ValueTextEquals(_names[i]))
                {
                    index = i;
                    break;
                }
            }

            reader.Read();
            if (index < 0)
            {
                reader.Skip();
            }
            else
            {
                // Duplicate names never get here: the message reader refuses them before dispatch.
                ReadArgument(ref reader, index, ref args);
                seen |= 1UL << index;
            }
        }

        var all = count == 64 ? ulong.MaxValue : (1UL << count) - 1;
        if (seen != all)
        {
            var missing = System.Numerics.BitOperations.TrailingZeroCount(~seen);
            throw new ParamsBindingException($"Missing param: {Encoding.UTF8.GetString(_names[missing])} ({_signature})."); // (no quotes: JSON would escape them in the error's data)
        }
    }
}

/// <summary>
/// Reads one argument of type <typeparamref name="T"/>: through its <see cref="JsonTypeInfo{T}"/>, or straight from
/// the reader when the type is a primitive served by the serializer's own converter with strict number handling, which
/// is what the serializer would do, without its per-call setup.
/// </summary>
internal readonly struct ArgumentReader<T>
{
    private readonly JsonTypeInfo<T> _typeInfo;
    private readonly bool _direct;

    public ArgumentReader(JsonTypeInfo<T> typeInfo)
    {
        ArgumentNullException.ThrowIfNull(typeInfo);
        _typeInfo = typeInfo;
        _direct = BuiltInPrimitive.IsDirect(typeInfo);
    }

    public T Read(ref Utf8JsonReader reader)
    {
        if (_direct)
        {
            if (typeof(T) == typeof(int))
            {
                return reader.TokenType == JsonTokenType.Number && reader.TryGetInt32(out var value) ? (T)(object)value : throw Mismatch();
            }

            if (typeof(T) == typeof(long))
            {
                return reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out var value) ? (T)(object)value : throw Mismatch();
            }

            if (typeof(T) == typeof(double))
            {
                return reader.TokenType == JsonTokenType.Number && reader.TryGetDouble(out var value) ? (T)(object)value : throw Mismatch();
            }

            if (typeof(T) == typeof(bool))
            {
                return reader.TokenType switch
                {
                    JsonTokenType.True => (T)(object)true,
                    JsonTokenType.False => (T)(object)false,
                    _ => throw Mismatch(),
                };
            }

            if (typeof(T) == typeof(string))
            {
                return reader.TokenType switch
                {
                    JsonTokenType.String => (T)(object)reader.GetString()!,
                    JsonTokenType.Null => default!,
                    _ => throw Mismatch(),
                };
            }
        }

        return JsonSerializer.Deserialize(ref reader, _typeInfo)!;
    }

    /// <summary>Reads a scalar token as <see cref="Read"/> would; false when the reader path must decide.</summary>
    public bool TryRead(ReadOnlySpan<byte> token, out T value)
    {
        value = default!;
        if (!_direct || token.IsEmpty)
        {
            return false;
        }

        var first = token[0];
        var isNumber = first is (byte)'-' or (>= (byte)'0' and <= (byte)'9');
        if (typeof(T) == typeof(int))
        {
            if (isNumber && Utf8Parser.TryParse(token, out int number, out var used) && used == token.Length)
            {
                value = (T)(object)number;
                return true;
            }
        }
        else if (typeof(T) == typeof(long))
        {
            if (isNumber && Utf8Parser.TryParse(token, out long number, out var used) && used == token.Length)
            {
                value = (T)(object)number;
                return true;
            }
        }
        else if (typeof(T) == typeof(double))
        {
            if (isNumber && Utf8Parser.TryParse(token, out double number, out var used) && used == token.Length && double.IsFinite(number))
            {
                value = (T)(object)number;
                return true;
            }
        }
        else if (typeof(T) == typeof(bool))
        {
            if (token.SequenceEqual("true"u8) || token.SequenceEqual("false"u8))
            {
                value = (T)(object)(first == (byte)'t');
                return true;
            }
        }
        else if (typeof(T) == typeof(string))
        {
            if (first == (byte)'"')
            {
                value = (T)(object)Encoding.UTF8.GetString(token[1..^1]);
                return true;
            }

            if (token.SequenceEqual("null"u8))
            {
                return true; // value is null
            }
        }

        return false;
    }

    private static ParamsBindingException Mismatch() => new($"The JSON value could not be converted to {typeof(T)}.");
}

internal sealed class NamedParamsBinder<T1>(string name1, JsonTypeInfo<T1> t1) : NamedParamsBinderBase<T1>([name1])
{
    private readonly ArgumentReader<T1> _t1 = new(t1);

    public override T1 Bind(ReadOnlyMemory<byte> parameters)
    {
        T1 args = default!;
        if (!TryReadArgumentsDirect(parameters.Span, ref args))
        {
            ReadArguments(parameters.Span, ref args);
        }

        return args;
    }

    protected override bool TryReadArgument(ReadOnlySpan<byte> token, int index, ref T1 args) => _t1.TryRead(token, out args);

    protected override void ReadArgument(ref Utf8JsonReader reader, int index, ref T1 args) => args = _t1.Read(ref reader);
}

internal sealed class NamedParamsBinder<T1, T2>(string name1, string name2, JsonTypeInfo<T1> t1, JsonTypeInfo<T2> t2)
    : NamedParamsBinderBase<(T1, T2)>([name1, name2])
{
    private readonly ArgumentReader<T1> _t1 = new(t1);
    private readonly ArgumentReader<T2> _t2 = new(t2);

    public override (T1, T2) Bind(ReadOnlyMemory<byte> parameters)
    {
        (T1, T2) args = default;
        if (!TryReadArgumentsDirect(parameters.Span, ref args))
        {
            ReadArguments(parameters.Span, ref args);
        }

        return args;
    }

    protected override bool TryReadArgument(ReadOnlySpan<byte> token, int index, ref (T1, T2) args)
        => index == 0 ? _t1.TryRead(token, out args.Item1) : _t2.TryRead(token, out args.Item2);

    protected override void ReadArgument(ref Utf8JsonReader reader, int index, ref (T1, T2) args)
    {
        if (index == 0)
        {
            args.Item1 = _t1.Read(ref reader);
        }
        else
        {
            args.Item2 = _t2.Read(ref reader);
        }
    }
}

internal sealed class NamedParamsBinder<T1, T2, T3>(string name1, string name2, string name3, JsonTypeInfo<T1> t1, JsonTypeInfo<T2> t2, JsonTypeInfo<T3> t3)
    : NamedParamsBinderBase<(T1, T2, T3)>([name1, name2, name3])
{
    private readonly ArgumentReader<T1> _t1 = new(t1);
    private readonly ArgumentReader<T2> _t2 = new(t2);
    private readonly ArgumentReader<T3> _t3 = new(t3);

    public override (T1, T2, T3) Bind(ReadOnlyMemory<byte> parameters)
    {
        (T1, T2, T3) args = default;
        if (!TryReadArgumentsDirect(parameters.Span, ref args))
        {
            ReadArguments(parameters.Span, ref args);
        }

        return args;
    }

    protected override bool TryReadArgument(ReadOnlySpan<byte> token, int index, ref (T1, T2, T3) args) => index switch
    {
        0 => _t1.TryRead(token, out args.Item1),
        1 => _t2.TryRead(token, out args.Item2),
        _ => _t3.TryRead(token, out args.Item3),
    };

    protected override void ReadArgument(ref Utf8JsonReader reader, int index, ref (T1, T2, T3) args)
    {
        switch (index)
        {
            case 0:
                args.Item1 = _t1.Read(ref reader);
                break;
            case 1:
                args.Item2 = _t2.Read(ref reader);
                break;
            default:
                args.Item3 = _t3.Read(ref reader);
                break;
        }
    }
}
