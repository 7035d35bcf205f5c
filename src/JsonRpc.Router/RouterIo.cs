using System.Globalization;
using JsonRpc.Server;

namespace JsonRpc.Router;

/// <summary>
/// How the standalone router drives its sockets: <c>--inline_io</c> (whether a socket's data is handled on the thread
/// that was told it arrived) and <c>--io_threads</c> (how many threads wait on epoll for every socket of the process).
/// <para>
/// Inline, a routed call is read, checked, routed and written to its provider's socket on the one thread that saw it
/// arrive, and the answer likewise: no hand-off to the thread pool per message, so no pool thread to wake and none
/// spinning (<c>sched_yield</c>) before it sleeps again, and one thread that sees several sockets ready at once takes
/// them all from one <c>epoll_wait</c>. Measured on a 2-core VM (benchmarks/results/syscalls), the router's CPU per call
/// fell by 28% to 44% and its system calls per small call below five, with 64 in flight 46% more calls/s.
/// </para>
/// <para>
/// It is off by default because the router is shared: one thread takes every socket in turn, so what one client makes
/// it do delays everyone's messages. In the same measurements the closed loop's p99 rose from about 0.4 to 0.55-0.7
/// ms, and beside eight hostile connections the innocent clients kept 70% to 79% of their calls/s (the same absolute
/// calls/s as without inline handling, from a higher start), under the 80% the router promises. A router that serves
/// clients one trusts, on few cores, gains most from it.
/// </para>
/// <para>
/// The router's own code never blocks a thread (JWTs are checked with keys in memory; the NATS client, the OTLP
/// exporter and the console logger wait on threads of their own), which is what inline handling needs; a host that runs
/// application code of its own on Kestrel should think twice before doing the same, which is why this is the standalone
/// router's setting and not the library's. Both are process-wide .NET settings
/// (<c>DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS</c>, <c>DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT</c>) read when the
/// first socket starts, so they are set here before the host starts; an environment that sets either variable itself
/// keeps its own value.
/// </para>
/// </summary>
internal static class RouterIo
{
    internal const string InlineVariable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";
    internal const string ThreadCountVariable = "DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT";

    /// <summary>The settings, beside the router's in the <c>JsonRpcRouter</c> section (read in <see cref="Apply"/>).</summary>
    internal static ConfigOption[] Options { get; } =
    [
        new("InlineIo", "inline_io", "[true|false]", "false",
            "Handle each message on the socket thread that saw it arrive, instead of handing it to the thread pool."),
        new("IoThreads", "io_threads", "<n>", ".NET's own; with inline_io, half the cores (at least 1)",
            "Threads that wait for socket events (with inline_io, the threads that route every message)."),
    ];

    /// <summary>The command-line switches of <see cref="Options"/>.</summary>
    public static IReadOnlyDictionary<string, string> SwitchMappings { get; } = ConfigOption.SwitchMappings(Options);

    /// <summary>
    /// The default of <c>io_threads</c> with <c>inline_io</c> on a machine with <paramref name="processors"/> cores: on
    /// 2 cores one thread cost less CPU and fewer system calls per call than two at the same calls/s (the other core runs
    /// everything else); without inline handling .NET's own choice stands.
    /// </summary>
    public static int DefaultInlineThreads(int processors) => Math.Max(1, processors / 2);

    /// <summary>Reads the settings and applies them to the process and to Kestrel's socket transport.</summary>
    /// <exception cref="InvalidOperationException">A value cannot be used; the message names the option.</exception>
    public static void Apply(WebApplicationBuilder builder)
    {
        var section = builder.Configuration.GetSection(JsonRpcRouterOptions.SectionName);
        var inlineText = section["InlineIo"] ?? section["inline_io"];
        var inline = false;
        if (inlineText is not null && !bool.TryParse(inlineText, out inline))
        {
            throw new InvalidOperationException($"{Options[0]}: '{inlineText}' is neither true nor false.");
        }

        var threadsText = section["IoThreads"] ?? section["io_threads"];
        int? threads = inline ? DefaultInlineThreads(Environment.ProcessorCount) : null;
        if (threadsText is not null)
        {
            if (!int.TryParse(threadsText, NumberStyles.None, CultureInfo.InvariantCulture, out var given) || given is < 1 or > 1024)
            {
                throw new InvalidOperationException($"{Options[1]}: '{threadsText}' is not a number of threads from 1 to 1024.");
            }

            threads = given;
        }

        if (threads is { } count)
        {
            SetUnlessSet(ThreadCountVariable, count.ToString(CultureInfo.InvariantCulture));
        }

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
