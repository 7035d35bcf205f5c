using System.Globalization;
using JsonRpc.Server;

namespace JsonRpc.Router;

/// <summary>
/// How the standalone router drives its sockets: <c>--io_threads</c> (how many threads wait on epoll for every socket
/// of the process) and <c>--inline_io</c> (whether a socket's data is handled on the thread that was told it arrived).
/// <para>
/// Inline, a routed call is read, checked, routed and written to its provider's socket on the one thread that saw it
/// arrive, and the answer likewise: no hand-off to the thread pool per message, so no pool thread to wake and no pool
/// thread spinning (<c>sched_yield</c>) before it sleeps again, and one thread that sees several sockets ready at once
/// takes them all from one <c>epoll_wait</c>. Measured on a 2-core VM (benchmarks/results/syscalls), the router's CPU
/// per small call fell by a quarter to a half and its system calls per call below five. The router's own code never
/// blocks a thread (JWTs are checked with keys in memory; the NATS client, the OTLP exporter and the console logger run
/// their waits on threads of their own), which is what inline handling needs; a host that runs application code of its
/// own on Kestrel should think twice before doing the same, which is why this is the standalone router's setting and
/// not the library's.
/// </para>
/// <para>
/// Both are process-wide .NET settings (<c>DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS</c>,
/// <c>DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT</c>) read when the first socket starts, so they are set here before the
/// host starts; an environment that sets either variable itself keeps its own value.
/// </para>
/// </summary>
internal static class RouterIo
{
    internal const string InlineVariable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";
    internal const string ThreadCountVariable = "DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT";

    /// <summary>The settings, beside the router's in the <c>JsonRpcRouter</c> section (read in <see cref="Apply"/>).</summary>
    internal static ConfigOption[] Options { get; } =
    [
        new("IoThreads", "io_threads", "<n>", "half the cores, at least 1",
            "Threads that wait for socket events (with inline_io, the threads that route every message)."),
        new("InlineIo", "inline_io", "[true|false]", "true",
            "Handle each message on the socket thread that saw it arrive, instead of handing it to the thread pool."),
    ];

    /// <summary>The command-line switches of <see cref="Options"/>.</summary>
    public static IReadOnlyDictionary<string, string> SwitchMappings { get; } = ConfigOption.SwitchMappings(Options);

    /// <summary>The default of <c>io_threads</c> on a machine with <paramref name="processors"/> cores.</summary>
    public static int DefaultThreads(int processors) => Math.Max(1, processors / 2);

    /// <summary>Reads the settings and applies them to the process and to Kestrel's socket transport.</summary>
    /// <exception cref="InvalidOperationException">A value cannot be used; the message names the option.</exception>
    public static void Apply(WebApplicationBuilder builder)
    {
        var section = builder.Configuration.GetSection(JsonRpcRouterOptions.SectionName);
        var threadsText = section["IoThreads"] ?? section["io_threads"];
        var threads = DefaultThreads(Environment.ProcessorCount);
        if (threadsText is not null
            && (!int.TryParse(threadsText, NumberStyles.None, CultureInfo.InvariantCulture, out threads) || threads is < 1 or > 1024))
        {
            throw new InvalidOperationException($"io_threads: '{threadsText}' is not a number of threads from 1 to 1024.");
        }

        var inlineText = section["InlineIo"] ?? section["inline_io"];
        var inline = true;
        if (inlineText is not null && !bool.TryParse(inlineText, out inline))
        {
            throw new InvalidOperationException($"inline_io: '{inlineText}' is neither true nor false.");
        }

        SetUnlessSet(ThreadCountVariable, threads.ToString(CultureInfo.InvariantCulture));
        if (inline)
        {
            SetUnlessSet(InlineVariable, "1");
            builder.WebHost.UseSockets(sockets => sockets.UnsafePreferInlineScheduling = true);
        }
    }

    private static void SetUnlessSet(string variable, string value)
    {
        if (string.IsNullOrEmpty(Environment.GetEnvironmentVariable(variable)))
        {
            Environment.SetEnvironmentVariable(variable, value);
        }
    }
}
