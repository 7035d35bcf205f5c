using System.Text.Json;

namespace JsonRpc.Serialization;

/// <summary>The protocol's member names, as UTF-8 for matching and pre-encoded for writing.</summary>
internal static class JsonRpcPropertyNames
{
    public static ReadOnlySpan<byte> JsonRpcUtf8 => "jsonrpc"u8;
    public static ReadOnlySpan<byte> VersionUtf8 => "2.0"u8;
    public static ReadOnlySpan<byte> IdUtf8 => "id"u8;
    public static ReadOnlySpan<byte> MethodUtf8 => "method"u8;
    public static ReadOnlySpan<byte> ParamsUtf8 => "params"u8;
    public static ReadOnlySpan<byte> ResultUtf8 => "result"u8;
    public static ReadOnlySpan<byte> ErrorUtf8 => "error"u8;
    public static ReadOnlySpan<byte> CodeUtf8 => "code"u8;
    public static ReadOnlySpan<byte> MessageUtf8 => "message"u8;
    public static ReadOnlySpan<byte> DataUtf8 => "data"u8;

    public static readonly JsonEncodedText JsonRpc = JsonEncodedText.Encode("jsonrpc");
    public static readonly JsonEncodedText Version = JsonEncodedText.Encode("2.0");
    public static readonly JsonEncodedText Id = JsonEncodedText.Encode("id");
    public static readonly JsonEncodedText Method = JsonEncodedText.Encode("method");
    public static readonly JsonEncodedText Params = JsonEncodedText.Encode("params");
    public static readonly JsonEncodedText Result = JsonEncodedText.Encode("result");
    public static readonly JsonEncodedText Error = JsonEncodedText.Encode("error");
    public static readonly JsonEncodedText Code = JsonEncodedText.Encode("code");
    public static readonly JsonEncodedText Message = JsonEncodedText.Encode("message");
    public static readonly JsonEncodedText Data = JsonEncodedText.Encode("data");
}
