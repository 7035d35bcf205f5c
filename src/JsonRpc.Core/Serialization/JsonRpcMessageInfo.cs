using System.Text;
using System.Text.Json;
using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>
/// What <see cref="JsonRpcMessageReader"/> saw in one message: the kind, the id, and where the method, params,
/// result and error lie, as ranges of the message's bytes. Holds no reference to those bytes: pass the same span
/// to the accessors.
/// </summary>
/// <remarks>This is the union ("property bag") the single forward pass fills; the converter builds messages from it.</remarks>
public struct JsonRpcMessageInfo
{
    internal JsonRpcMessageKind _kind;
    internal RequestIdKind _idKind;
    internal bool _idIsInt64;
    internal bool _idIsEscaped;
    internal bool _hasMethod;
    internal bool _methodIsEscaped;
    internal bool _errorMessageIsEscaped;
    internal long _idInt64;
    internal int _idStart, _idLength;
    internal int _methodStart, _methodLength;
    internal int _paramsStart, _paramsLength;
    internal int _resultStart, _resultLength;
    internal int _errorStart, _errorLength;
    internal int _errorCode;
    internal int _errorMessageStart, _errorMessageLength;
    internal int _errorDataStart, _errorDataLength;
    internal int _batchCount;

    /// <summary>What the message is; <see cref="JsonRpcMessageKind.Invalid"/> when it was refused.</summary>
    public readonly JsonRpcMessageKind Kind => _kind;

    /// <summary>What the id holds; <see cref="RequestIdKind.None"/> when there was none or it could not be read.</summary>
    public readonly RequestIdKind IdKind => _idKind;

    /// <summary>The id's JSON token, quotes included for a string: what to splice out when rewriting the id.</summary>
    public readonly Range IdToken => new(_idStart, _idStart + _idLength);

    /// <summary>True when the id is a string containing escape sequences.</summary>
    public readonly bool IdIsEscaped => _idIsEscaped;

    /// <summary>The method name's bytes between the quotes (still escaped if <see cref="MethodIsEscaped"/>).</summary>
    public readonly Range Method => new(_methodStart, _methodStart + _methodLength);

    /// <summary>True when the message has a method (requests and notifications).</summary>
    public readonly bool HasMethod => _hasMethod;

    /// <summary>True when the method name contains escape sequences; use <see cref="GetMethod"/> to unescape it.</summary>
    public readonly bool MethodIsEscaped => _methodIsEscaped;

    /// <summary>True when there is a <c>params</c> member.</summary>
    public readonly bool HasParams => _paramsLength > 0;

    /// <summary>The <c>params</c> value, exactly as sent.</summary>
    public readonly Range Params => new(_paramsStart, _paramsStart + _paramsLength);

    /// <summary>True when there is a <c>result</c> member.</summary>
    public readonly bool HasResult => _resultLength > 0;

    /// <summary>The <c>result</c> value, exactly as sent.</summary>
    public readonly Range Result => new(_resultStart, _resultStart + _resultLength);

    /// <summary>True when there is an <c>error</c> member.</summary>
    public readonly bool HasError => _errorLength > 0;

    /// <summary>The whole <c>error</c> object, exactly as sent.</summary>
    public readonly Range Error => new(_errorStart, _errorStart + _errorLength);

    /// <summary>The <c>error.code</c> of an error answer.</summary>
    public readonly int ErrorCode => _errorCode;

    /// <summary>The <c>error.message</c> bytes between the quotes (still escaped if the message had escapes).</summary>
    public readonly Range ErrorMessage => new(_errorMessageStart, _errorMessageStart + _errorMessageLength);

    /// <summary>True when the error object has a <c>data</c> member.</summary>
    public readonly bool HasErrorData => _errorDataLength > 0;

    /// <summary>The <c>error.data</c> value, exactly as sent.</summary>
    public readonly Range ErrorData => new(_errorDataStart, _errorDataStart + _errorDataLength);

    /// <summary>The number of elements of a batch.</summary>
    public readonly int BatchCount => _batchCount;

    /// <summary>Gets the id when it is a number that is a plain 64-bit integer. Allocates nothing.</summary>
    public readonly bool TryGetInt64Id(out long id)
    {
        id = _idInt64;
        return _idIsInt64;
    }

    /// <summary>The id as a <see cref="RequestId"/>; allocates only for string ids and unusual numbers.</summary>
    public readonly RequestId GetId(ReadOnlySpan<byte> message)
    {
        switch (_idKind)
        {
            case RequestIdKind.Null:
                return RequestId.Null;
            case RequestIdKind.Number:
                return _idIsInt64 ? new RequestId(_idInt64) : RequestId.FromValidatedNumber(message.Slice(_idStart, _idLength));
            case RequestIdKind.String:
                return new RequestId(_idIsEscaped
                    ? UnescapeString(message.Slice(_idStart, _idLength))
                    : Encoding.UTF8.GetString(message.Slice(_idStart + 1, _idLength - 2)));
            default:
                return RequestId.None;
        }
    }

    /// <summary>
    /// The method name as unescaped UTF-8: a slice of <paramref name="message"/>, or of <paramref name="scratch"/> when
    /// the name had escapes. <paramref name="scratch"/> needs at most <c>Method</c>'s length. Allocates nothing.
    /// Empty when the message has no method.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="scratch"/> is too short for an escaped name.</exception>
    public readonly ReadOnlySpan<byte> GetMethod(ReadOnlySpan<byte> message, Span<byte> scratch)
    {
        var raw = message.Slice(_methodStart, _methodLength);
        if (!_methodIsEscaped)
        {
            return raw;
        }

        var quoted = message.Slice(_methodStart - 1, _methodLength + 2);
        var reader = new Utf8JsonReader(quoted);
        reader.Read();
        var written = reader.CopyString(scratch);
        return scratch[..written];
    }

    /// <summary>The <c>error.message</c> as a string.</summary>
    public readonly string GetErrorMessage(ReadOnlySpan<byte> message)
        => _errorMessageIsEscaped
            ? UnescapeString(message.Slice(_errorMessageStart - 1, _errorMessageLength + 2))
            : Encoding.UTF8.GetString(message.Slice(_errorMessageStart, _errorMessageLength));

    internal static string UnescapeString(ReadOnlySpan<byte> quotedToken)
    {
        var reader = new Utf8JsonReader(quotedToken);
        reader.Read();
        return reader.GetString()!;
    }
}
