using System.ComponentModel;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Dispatch;

namespace JsonRpc.Contracts;

/// <summary>
/// Reads and writes one parameter of a generated params type: straight from and to the JSON when its metadata is the
/// serializer's own for an <see cref="int"/>, <see cref="long"/>, <see cref="double"/>, <see cref="bool"/> or
/// <see cref="string"/> with strict number handling (what the serializer would do, without its per-call setup, as the
/// dispatcher's own binders do), else through the serializer. Not for hand-written code.
/// </summary>
/// <typeparam name="T">The parameter's type.</typeparam>
[EditorBrowsable(EditorBrowsableState.Never)]
public sealed class JsonRpcContractParameter<T>
{
    private readonly JsonTypeInfo<T> _typeInfo;
    private readonly ArgumentReader<T> _reader;
    private readonly bool _direct;

    /// <summary>The parameter's metadata from <paramref name="options"/>.</summary>
    /// <exception cref="InvalidOperationException">The options have no metadata for the type.</exception>
    public JsonRpcContractParameter(JsonSerializerOptions options)
    {
        _typeInfo = JsonRpcContractSupport.GetTypeInfo<T>(options);
        _reader = new ArgumentReader<T>(_typeInfo);
        _direct = BuiltInPrimitive.IsDirect(_typeInfo);
    }

    /// <summary>Reads the value the reader is on.</summary>
    public T Read(ref Utf8JsonReader reader) => _reader.Read(ref reader);

    /// <summary>Writes <paramref name="value"/>.</summary>
    public void Write(Utf8JsonWriter writer, T value)
    {
        ArgumentNullException.ThrowIfNull(writer);
        if (_direct)
        {
            if (typeof(T) == typeof(int))
            {
                writer.WriteNumberValue((int)(object)value!);
                return;
            }

            if (typeof(T) == typeof(long))
            {
                writer.WriteNumberValue((long)(object)value!);
                return;
            }

            if (typeof(T) == typeof(double))
            {
                writer.WriteNumberValue((double)(object)value!);
                return;
            }

            if (typeof(T) == typeof(bool))
            {
                writer.WriteBooleanValue((bool)(object)value!);
                return;
            }

            if (typeof(T) == typeof(string))
            {
                if (value is string text)
                {
                    writer.WriteStringValue(text);
                }
                else
                {
                    writer.WriteNullValue();
                }

                return;
            }
        }

        JsonSerializer.Serialize(writer, value, _typeInfo);
    }
}
