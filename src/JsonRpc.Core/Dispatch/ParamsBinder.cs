using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
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

/// <summary>The whole params value binds to one type (a class for named params, an array or list for positional ones).</summary>
internal sealed class WholeParamsBinder<T>(JsonTypeInfo<T> typeInfo) : ParamsBinder<T>
{
    public override T Bind(ReadOnlyMemory<byte> parameters)
        => JsonSerializer.Deserialize(parameters.IsEmpty ? "null"u8 : parameters.Span, typeInfo)!;
}

/// <summary>The raw params, untouched.</summary>
internal sealed class RawParamsBinder : ParamsBinder<RawJson>
{
    public static readonly RawParamsBinder Instance = new();

    // A view of the caller's message: valid until the handler's task completes. Detach() to keep it longer.
    public override RawJson Bind(ReadOnlyMemory<byte> parameters) => RawJson.FromTrustedUtf8(parameters);
}

/// <summary>
/// Binds params to N named parameters: by position from an array (exactly N elements) or by name from an object (every
/// name present; other members are ignored).
/// </summary>
internal abstract class NamedParamsBinderBase<TArgs> : ParamsBinder<TArgs>
{
    private readonly byte[][] _names;
    private readonly string _signature;

    protected int Count => _names.Length;

    protected NamedParamsBinderBase(string[] names)
    {
        _names = new byte[names.Length][];
        for (var i = 0; i < names.Length; i++)
        {
            ArgumentException.ThrowIfNullOrEmpty(names[i]);
            _names[i] = Encoding.UTF8.GetBytes(names[i]);
        }

        _signature = string.Join(", ", names);
    }

    /// <summary>Finds each parameter's JSON value; <paramref name="ranges"/> gets a start and a length per parameter.</summary>
    protected void Locate(ReadOnlySpan<byte> parameters, Span<int> ranges)
    {
        var count = _names.Length;
        if (parameters.IsEmpty)
        {
            throw new ParamsBindingException($"Expected params ({_signature}).");
        }

        ranges.Fill(-1);
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

                Capture(ref reader, ranges, index++);
            }

            if (index != count)
            {
                throw new ParamsBindingException($"Too few params: expected {count} ({_signature}).");
            }

            return;
        }

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
                Capture(ref reader, ranges, index);
            }
        }

        for (var i = 0; i < count; i++)
        {
            if (ranges[2 * i] < 0)
            {
                throw new ParamsBindingException($"Missing param '{Encoding.UTF8.GetString(_names[i])}' ({_signature}).");
            }
        }
    }

    protected static ReadOnlySpan<byte> Slice(ReadOnlySpan<byte> parameters, Span<int> ranges, int index)
        => parameters.Slice(ranges[2 * index], ranges[(2 * index) + 1]);

    protected static T Read<T>(ReadOnlySpan<byte> parameters, Span<int> ranges, int index, JsonTypeInfo<T> typeInfo)
        => JsonSerializer.Deserialize(parameters.Slice(ranges[2 * index], ranges[(2 * index) + 1]), typeInfo)!;

    private static void Capture(ref Utf8JsonReader reader, Span<int> ranges, int index)
    {
        var start = (int)reader.TokenStartIndex;
        reader.Skip();
        ranges[2 * index] = start;
        ranges[(2 * index) + 1] = (int)reader.BytesConsumed - start;
    }
}

internal sealed class NamedParamsBinder<T1>(string name1, JsonTypeInfo<T1> t1) : NamedParamsBinderBase<T1>([name1])
{
    public override T1 Bind(ReadOnlyMemory<byte> memory)
    {
        var parameters = memory.Span;
        Span<int> ranges = stackalloc int[2];
        Locate(parameters, ranges);
        return Read(parameters, ranges, 0, t1);
    }
}

internal sealed class NamedParamsBinder<T1, T2>(string name1, string name2, JsonTypeInfo<T1> t1, JsonTypeInfo<T2> t2)
    : NamedParamsBinderBase<(T1, T2)>([name1, name2])
{
    public override (T1, T2) Bind(ReadOnlyMemory<byte> memory)
    {
        var parameters = memory.Span;
        Span<int> ranges = stackalloc int[4];
        Locate(parameters, ranges);
        return (Read(parameters, ranges, 0, t1), Read(parameters, ranges, 1, t2));
    }
}

internal sealed class NamedParamsBinder<T1, T2, T3>(string name1, string name2, string name3, JsonTypeInfo<T1> t1, JsonTypeInfo<T2> t2, JsonTypeInfo<T3> t3)
    : NamedParamsBinderBase<(T1, T2, T3)>([name1, name2, name3])
{
    public override (T1, T2, T3) Bind(ReadOnlyMemory<byte> memory)
    {
        var parameters = memory.Span;
        Span<int> ranges = stackalloc int[6];
        Locate(parameters, ranges);
        return (Read(parameters, ranges, 0, t1), Read(parameters, ranges, 1, t2), Read(parameters, ranges, 2, t3));
    }
}
