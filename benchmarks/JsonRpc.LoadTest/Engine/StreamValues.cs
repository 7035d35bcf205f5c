using System.Runtime.CompilerServices;

namespace JsonRpc.LoadTest.Engine;

/// <summary>The sequence both generators serve: 0 … count-1, each value ready at once.</summary>
internal static class StreamValues
{
    public static async IAsyncEnumerable<int> Generate(int count, [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        for (var i = 0; i < count; i++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            yield return i;
        }

        await Task.CompletedTask.ConfigureAwait(false);
    }
}
