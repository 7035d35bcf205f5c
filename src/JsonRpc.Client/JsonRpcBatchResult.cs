using System.Diagnostics.CodeAnalysis;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using JsonRpc.Protocol;

namespace JsonRpc.Client;

/// <summary>The answer to one entry of a batch: a result, an error, or nothing (for a notification).</summary>
public readonly struct JsonRpcBatchResult
{
    private readonly JsonSerializerOptions? _serializerOptions;

    internal JsonRpcBatchResult(RawJson result, JsonRpcRemoteException? error, bool isNotification, JsonSerializerOptions? serializerOptions = null)
    {
        _serializerOptions = serializerOptions;
        Result = result;
        Error = error;
        IsNotification = isNotification;
    }

    /// <summary>The result exactly as received (a private copy); absent for an error or a notification.</summary>
    public RawJson Result { get; }

    /// <summary>The error the peer answered with, or null.</summary>
    public JsonRpcRemoteException? Error { get; }

    /// <summary>True for the entry of a notification, which has no answer.</summary>
    public bool IsNotification { get; }

    /// <summary>True when the call succeeded.</summary>
    public bool IsSuccess => Error is null && !IsNotification;

    /// <summary>The result deserialized; throws <see cref="Error"/> when the call failed.</summary>
    /// <exception cref="JsonRpcRemoteException">The call failed.</exception>
    /// <exception cref="InvalidOperationException">The entry is a notification.</exception>
    public T? GetResult<T>(JsonTypeInfo<T> resultType)
    {
        ArgumentNullException.ThrowIfNull(resultType);
        return GetResult().Deserialize(resultType);
    }

    /// <summary>
    /// The result deserialized with the client's <see cref="JsonRpcClientOptions.SerializerOptions"/>, as
    /// <c>CallAsync&lt;T&gt;</c> without a <see cref="JsonTypeInfo{T}"/> does; throws <see cref="Error"/> when the call failed.
    /// </summary>
    /// <exception cref="JsonRpcRemoteException">The call failed.</exception>
    /// <exception cref="InvalidOperationException">The entry is a notification.</exception>
    /// <exception cref="JsonException">The result does not fit <typeparamref name="T"/>.</exception>
    [RequiresUnreferencedCode("Deserializes with reflection through JsonRpcClientOptions.SerializerOptions; use GetResult(JsonTypeInfo) for trimming.")]
    [RequiresDynamicCode("Deserializes with reflection through JsonRpcClientOptions.SerializerOptions; use GetResult(JsonTypeInfo) for native AOT.")]
    public T? GetResult<T>()
    {
        var result = GetResult();
        return JsonSerializer.Deserialize<T>(result.Span, _serializerOptions ?? JsonSerializerOptions.Web);
    }

    /// <summary>The result as JSON; throws <see cref="Error"/> when the call failed.</summary>
    /// <exception cref="JsonRpcRemoteException">The call failed.</exception>
    /// <exception cref="InvalidOperationException">The entry is a notification.</exception>
    public RawJson GetResult()
    {
        if (Error is not null)
        {
            throw Error;
        }

        if (IsNotification)
        {
            throw new InvalidOperationException("A notification has no result.");
        }

        return Result;
    }
}
