namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// .NET's process-wide switch for where socket completions run: by default the socket engine's thread hands each one
/// to the thread pool (a pool thread to wake, and idle pool threads spinning in <c>sched_yield</c> before they sleep);
/// with <c>DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1</c> the engine's thread runs it itself. The runtime reads the
/// variable once, when the process's first socket operation starts the engine, so it is set before any socket.
/// </summary>
internal static class InlineSocketCompletions
{
    public const string Variable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";

    /// <summary>Whether this process runs them inline (set by <see cref="Enable"/> or by its environment).</summary>
    public static bool Enabled => Environment.GetEnvironmentVariable(Variable) == "1";

    /// <summary>Turns them on for this process; a value the environment already gives is kept.</summary>
    public static void Enable()
    {
        if (string.IsNullOrEmpty(Environment.GetEnvironmentVariable(Variable)))
        {
            Environment.SetEnvironmentVariable(Variable, "1");
        }
    }
}
