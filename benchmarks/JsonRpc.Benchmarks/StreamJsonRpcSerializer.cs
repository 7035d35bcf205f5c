using System.Buffers;
using JsonRpc.Benchmarks.Baseline;
using StreamJsonRpc;
using StreamJsonRpc.Protocol;
using StreamJsonRpc.Reflection;

namespace JsonRpc.Benchmarks;

/// <summary>
/// StreamJsonRpc 2.26's <see cref="SystemTextJsonFormatter"/> through its public formatter API, as its
/// <c>JsonRpc</c> calls it: <see cref="IJsonRpcMessageFormatter.Deserialize"/> on the message's bytes (then
/// <see cref="IJsonRpcMessageBufferManager.DeserializationComplete"/>, which returns its pooled document, as
/// <c>JsonRpc</c> does once a message is handled), and <see cref="IJsonRpcMessageFormatter.Serialize"/> of messages made
/// by its own <see cref="IJsonRpcMessageFactory"/>.
/// </summary>
internal sealed class StreamJsonRpcSerializer : IDisposable
{
    private readonly SystemTextJsonFormatter _formatter = new();

    /// <summary>Reads a message and keeps it (for the checks, which look at its values).</summary>
    public JsonRpcMessage Read(byte[] bytes) => _formatter.Deserialize(new ReadOnlySequence<byte>(bytes));

    /// <summary>Reads a message and releases what it holds, as <c>JsonRpc</c> does after handling it.</summary>
    public JsonRpcMessage ReadAndRelease(byte[] bytes)
    {
        var message = _formatter.Deserialize(new ReadOnlySequence<byte>(bytes));
        (message as IJsonRpcMessageBufferManager)?.DeserializationComplete(message);
        return message;
    }

    public void Write(IBufferWriter<byte> output, JsonRpcMessage message) => _formatter.Serialize(output, message);

    /// <summary>The same message as StreamJsonRpc's outgoing model, its params / result / error data as the same JSON values.</summary>
    public JsonRpcMessage From(BaselineMessage message)
    {
        IJsonRpcMessageFactory factory = _formatter;
        switch (message)
        {
            case BaselineRequest request:
            {
                var outgoing = factory.CreateRequestMessage();
                outgoing.RequestId = Id(request.Id);
                outgoing.Method = request.Method;
                outgoing.Arguments = request.Params;
                return outgoing;
            }

            case BaselineNotification notification:
            {
                var outgoing = factory.CreateRequestMessage();
                outgoing.Method = notification.Method;
                outgoing.Arguments = notification.Params;
                return outgoing;
            }

            case BaselineResponse response:
            {
                var outgoing = factory.CreateResultMessage();
                outgoing.RequestId = Id(response.Id);
                outgoing.Result = response.Result;
                return outgoing;
            }

            case BaselineError error:
            {
                var outgoing = factory.CreateErrorMessage();
                outgoing.RequestId = Id(error.Id);
                outgoing.Error = new JsonRpcError.ErrorDetail
                {
                    Code = (JsonRpcErrorCode)error.Error.Code,
                    Message = error.Error.Message,
                    Data = error.Error.Data,
                };
                return outgoing;
            }

            default:
                throw new ArgumentException($"No StreamJsonRpc counterpart for {message}.", nameof(message));
        }
    }

    private static RequestId Id(BaselineRequestId id) => id.Text is { } text ? new RequestId(text) : id.IsNull ? RequestId.Null : new RequestId(id.Number);

    public void Dispose() => _formatter.Dispose();
}
