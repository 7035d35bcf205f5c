using System.Buffers;
using System.Buffers.Text;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The calls one caller connection makes: <c>{"jsonrpc":"2.0","id":N,"method":"echo","params":["…"]}</c>, where the
/// string has exactly <see cref="Size"/> ASCII characters: the call's id, zero-padded, stamped over the first up to 12,
/// then a filler that differs per connection. So an answer carrying another call's or another connection's payload
/// is caught, and an answer is checked with two memory compares, without parsing the payload.
/// </summary>
internal sealed class EchoPayload
{
    /// <summary>The method every call goes to.</summary>
    public const string Method = "echo";

    private const int MaxStamp = 12;
    private static readonly long[] PowersOfTen = Powers();
    private readonly byte[] _filler;

    public EchoPayload(int size, int connection)
    {
        Size = size;
        StampWidth = Math.Min(size, MaxStamp);
        _filler = new byte[size];
        for (var i = 0; i < size; i++)
        {
            _filler[i] = (byte)('a' + ((i + (connection * 7)) % 26));
        }
    }

    /// <summary>Characters in the echoed string: the payload counted in Mbps.</summary>
    public int Size { get; }

    /// <summary>How many leading characters carry the call's id.</summary>
    public int StampWidth { get; }

    /// <summary>A request's length in bytes for an id of <paramref name="idDigits"/> digits, newline included.</summary>
    public int RequestLength(int idDigits) => RequestPrefix.Length + idDigits + RequestMiddle.Length + Size + RequestSuffix.Length + 1;

    private static ReadOnlySpan<byte> RequestPrefix => "{\"jsonrpc\":\"2.0\",\"id\":"u8;

    private static ReadOnlySpan<byte> RequestMiddle => ",\"method\":\"echo\",\"params\":[\""u8;

    private static ReadOnlySpan<byte> RequestSuffix => "\"]}"u8;

    /// <summary>Writes call <paramref name="id"/> as one newline-terminated line.</summary>
    public void WriteRequest(IBufferWriter<byte> output, long id)
    {
        var span = output.GetSpan(RequestLength(20));
        RequestPrefix.CopyTo(span);
        var at = RequestPrefix.Length;
        Utf8Formatter.TryFormat(id, span[at..], out var written);
        at += written;
        RequestMiddle.CopyTo(span[at..]);
        at += RequestMiddle.Length;
        WriteString(span.Slice(at, Size), id);
        at += Size;
        RequestSuffix.CopyTo(span[at..]);
        at += RequestSuffix.Length;
        span[at++] = (byte)'\n';
        output.Advance(at);
    }

    /// <summary>Writes the payload string of call <paramref name="id"/> (no quotes) into exactly <see cref="Size"/> bytes.</summary>
    public void WriteString(Span<byte> destination, long id)
    {
        WriteStamp(destination[..StampWidth], id);
        _filler.AsSpan(StampWidth).CopyTo(destination[StampWidth..]);
    }

    /// <summary>The payload string of call <paramref name="id"/>.</summary>
    public string GetString(long id)
    {
        var bytes = new byte[Size];
        WriteString(bytes, id);
        return System.Text.Encoding.ASCII.GetString(bytes);
    }

    /// <summary>Whether <paramref name="result"/> is exactly the echo of call <paramref name="id"/>: <c>["…"]</c>.</summary>
    public bool IsEcho(ReadOnlySpan<byte> result, long id)
        => result.Length == Size + 4
            && result.StartsWith("[\""u8)
            && result.EndsWith("\"]"u8)
            && IsString(result.Slice(2, Size), id);

    /// <summary>Whether <paramref name="text"/> (unquoted) is exactly the payload string of call <paramref name="id"/>.</summary>
    public bool IsString(ReadOnlySpan<byte> text, long id)
    {
        if (text.Length != Size)
        {
            return false;
        }

        Span<byte> stamp = stackalloc byte[MaxStamp];
        WriteStamp(stamp[..StampWidth], id);
        return text[..StampWidth].SequenceEqual(stamp[..StampWidth])
            && text[StampWidth..].SequenceEqual(_filler.AsSpan(StampWidth));
    }

    private static void WriteStamp(Span<byte> destination, long id)
    {
        // The id modulo 10^width, zero-padded: digits and letters need no escaping in a JSON string.
        var value = id % PowersOfTen[destination.Length];
        for (var i = destination.Length - 1; i >= 0; i--)
        {
            destination[i] = (byte)('0' + (value % 10));
            value /= 10;
        }
    }

    private static long[] Powers()
    {
        var powers = new long[MaxStamp + 1];
        powers[0] = 1;
        for (var i = 1; i < powers.Length; i++)
        {
            powers[i] = powers[i - 1] * 10;
        }

        return powers;
    }
}
