using System.Buffers;
using System.IO.Pipelines;
using StreamJsonRpc;

namespace JsonRpc.Peers;

/// <summary>
/// StreamJsonRpc's <see cref="NewLineDelimitedMessageHandler"/> with <see cref="SystemTextJsonFormatter"/>, set up so
/// that StreamJsonRpc 2.26 does not read freed memory.
/// </summary>
/// <remarks>
/// The handler advances its <see cref="PipeReader"/> past each line as soon as the formatter returns, but the formatter's
/// <c>JsonDocument</c> still points into that line (it parses a single-segment buffer in place) and the arguments are
/// read from it later, when the target method is known. Once the pipe has handed the block back to the shared pool,
/// the next message written or read by anyone can land in it, and the call fails with "-32602 … is an invalid start
/// of a value" or, worse, runs with other arguments. (StreamJsonRpc's Content-Length handler keeps the buffer until
/// the message is deserialized; its WebSocket handler had the same bug, fixed in its PR #623.) Reading from a pool
/// that never hands a block out twice keeps each line intact for as long as the formatter may read it; StreamJsonRpc
/// users who pair these two classes need the same.
/// </remarks>
internal static class StreamJsonRpcNewline
{
    /// <summary>A newline-framed handler over <paramref name="stream"/> whose reads never reuse a block.</summary>
    public static NewLineDelimitedMessageHandler Create(Stream stream, SystemTextJsonFormatter? formatter = null)
    {
        var reader = PipeReader.Create(stream, new StreamPipeReaderOptions(pool: FreshBlocks.Instance, leaveOpen: false));
        var writer = PipeWriter.Create(stream, new StreamPipeWriterOptions(leaveOpen: false));
        return new NewLineDelimitedMessageHandler(writer, reader, formatter ?? new SystemTextJsonFormatter());
    }

    /// <summary>A memory pool that allocates every block and takes none back, so a block is never written twice.</summary>
    private sealed class FreshBlocks : MemoryPool<byte>
    {
        public static readonly FreshBlocks Instance = new();

        public override int MaxBufferSize => int.MaxValue;

        public override IMemoryOwner<byte> Rent(int minBufferSize = -1) => new Block(new byte[minBufferSize <= 0 ? 4096 : minBufferSize]);

        protected override void Dispose(bool disposing)
        {
        }

        private sealed class Block(byte[] array) : IMemoryOwner<byte>
        {
            public Memory<byte> Memory => array;

            public void Dispose()
            {
            }
        }
    }
}
