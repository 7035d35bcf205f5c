using System.Globalization;
using JsonRpc.Server;
using JsonRpc.Server.Cluster;

namespace JsonRpc.Router;

/// <summary>
/// The standalone router's command line, checked before the host starts: <c>--help</c> prints every option with its
/// default; an unknown option or a switch without its value is a one-line error and a non-zero exit, rather than a
/// setting silently ignored. Values themselves are checked where they are bound, with the same one-line error.
/// </summary>
internal static class RouterCommandLine
{
    public const string ToolName = "jsonrpc-router";

    /// <summary>Exit code for a command line that cannot be used (as sysexits' EX_USAGE).</summary>
    public const int UsageError = 64;

    // Every switch, in the order --help lists them: the router's, the cluster's, then the standalone router's own.
    private static readonly ConfigOption[] Options =
    [
        .. JsonRpcRouterConfiguration.Options,
        .. JsonRpcClusterConfiguration.Options,
        .. RouterTelemetry.Options,
        .. RouterIo.Options,
    ];

    /// <summary>The snake_case switches of the router and of the cluster, for <c>AddCommandLine</c>.</summary>
    public static IDictionary<string, string> SwitchMappings { get; } = JsonRpcRouterConfiguration.CommandLineSwitchMappings
        .Concat(JsonRpcClusterConfiguration.CommandLineSwitchMappings).Concat(RouterTelemetry.SwitchMappings).Concat(RouterIo.SwitchMappings).ToDictionary(StringComparer.OrdinalIgnoreCase);

    /// <summary>
    /// Checks <paramref name="args"/>: returns an exit code when the process should stop here (after --help, or on a
    /// bad command line), or null to run with <paramref name="normalized"/> (a bare <c>--require_registration</c>
    /// given its <c>true</c>).
    /// </summary>
    public static int? Check(string[] args, TextWriter output, TextWriter error, out string[] normalized)
    {
        normalized = args;
        if (Array.Exists(args, static a => a is "--help" or "-h" or "-?" or "/?"))
        {
            WriteHelp(output);
            return 0;
        }

        if (Array.Exists(args, static a => a is "--version" or "-v"))
        {
            output.WriteLine($"{ToolName} {Version}");
            return 0;
        }

        var result = new List<string>(args.Length + 1);
        for (var i = 0; i < args.Length; i++)
        {
            var arg = args[i];
            if (!arg.StartsWith("--", StringComparison.Ordinal) || arg.Length == 2)
            {
                return Fail(error, $"unexpected argument '{arg}'; options start with --.");
            }

            var equals = arg.IndexOf('=', StringComparison.Ordinal);
            var name = equals < 0 ? arg[2..] : arg[2..equals];
            if (!IsKnown(name))
            {
                return Fail(error, Suggest(name) is { } known
                    ? $"unknown option '--{name}'; did you mean '--{known}'?"
                    : $"unknown option '--{name}'.");
            }

            result.Add(arg);
            if (equals >= 0)
            {
                continue;
            }

            var hasValue = i + 1 < args.Length && !args[i + 1].StartsWith("--", StringComparison.Ordinal);
            if (hasValue)
            {
                result.Add(args[++i]);
            }
            else if (IsFlag(name))
            {
                result.Add("true");
            }
            else
            {
                return Fail(error, $"option '--{name}' needs a value.");
            }
        }

        normalized = [.. result];
        return null;
    }

    /// <summary>A one-line error naming what is wrong, on stderr; returns <see cref="UsageError"/>.</summary>
    public static int Fail(TextWriter error, string message)
    {
        error.WriteLine($"{ToolName}: {message.ReplaceLineEndings(" ")} Run '{ToolName} --help' for the options.");
        return UsageError;
    }

    private static bool IsKnown(string name)
    {
        if (SwitchMappings.ContainsKey("--" + name))
        {
            return true;
        }

        // The configuration's own keys: JsonRpcRouter:Port=9000, JsonRpcRouter:call_timeout_ms=500, Logging:LogLevel:Default=Debug.
        const string Section = JsonRpcRouterOptions.SectionName + ":";
        if (name.StartsWith(Section, StringComparison.OrdinalIgnoreCase))
        {
            var key = name[Section.Length..];
            return Array.Exists(Options, o => key.Equals(o.Snake, StringComparison.OrdinalIgnoreCase) || key.Equals(o.Name, StringComparison.OrdinalIgnoreCase));
        }

        return name.StartsWith("Logging:", StringComparison.OrdinalIgnoreCase) || name.Equals("environment", StringComparison.OrdinalIgnoreCase);
    }

    private static bool IsFlag(string name) => Array.Exists(Options, o => o.IsFlag && o.Snake.Equals(name, StringComparison.OrdinalIgnoreCase));

    /// <summary>
    /// The switch an unknown <paramref name="name"/> was most likely meant to be: the same with '-' for '_' or in another
    /// case (<c>--http-port</c>, <c>--HttpPort</c>), else the nearest within two edits (<c>--max_mesage_size</c>).
    /// </summary>
    internal static string? Suggest(string name)
    {
        var plain = name.Replace('-', '_');
        foreach (var option in Options)
        {
            if (option.Snake.Equals(plain, StringComparison.OrdinalIgnoreCase) || option.Name.Equals(plain.Replace("_", "", StringComparison.Ordinal), StringComparison.OrdinalIgnoreCase))
            {
                return option.Snake;
            }
        }

        string? best = null;
        var bestDistance = 3;
        foreach (var option in Options)
        {
            var distance = EditDistance(plain.ToLowerInvariant(), option.Snake);
            if (distance < bestDistance)
            {
                (best, bestDistance) = (option.Snake, distance);
            }
        }

        return best;
    }

    private static int EditDistance(string a, string b)
    {
        var previous = new int[b.Length + 1];
        var current = new int[b.Length + 1];
        for (var j = 0; j <= b.Length; j++)
        {
            previous[j] = j;
        }

        for (var i = 1; i <= a.Length; i++)
        {
            current[0] = i;
            for (var j = 1; j <= b.Length; j++)
            {
                var substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
                current[j] = Math.Min(substitution, Math.Min(previous[j] + 1, current[j - 1] + 1));
            }

            (previous, current) = (current, previous);
        }

        return previous[b.Length];
    }

    /// <summary>The router's version (the assembly's informational version, without the source revision).</summary>
    public static string Version
    {
        get
        {
            var version = typeof(RouterCommandLine).Assembly
                .GetCustomAttributes(typeof(System.Reflection.AssemblyInformationalVersionAttribute), false)
                .OfType<System.Reflection.AssemblyInformationalVersionAttribute>().FirstOrDefault()?.InformationalVersion ?? "0.0.0";
            var plus = version.IndexOf('+', StringComparison.Ordinal);
            return plus < 0 ? version : version[..plus];
        }
    }

    private static void WriteHelp(TextWriter output)
    {
        output.WriteLine($"{ToolName}: the standalone JSON-RPC 2.0 router.");
        output.WriteLine();
        output.WriteLine($"Usage: {ToolName} [--option value]...");
        output.WriteLine();
        output.WriteLine("Options (each also JsonRpcRouter:<Name> in appsettings.json and JsonRpcRouter__<Name> in the environment):");
        foreach (var option in Options)
        {
            var left = $"  --{option.Snake} {option.Value}";
            output.WriteLine($"{left,-44} {option.Help} Default: {option.Default}.");
        }

        output.WriteLine($"{"  --Logging:LogLevel:Default <level>",-44} Log level: Trace, Debug, Information, Warning, Error. Default: Information.");
        output.WriteLine($"{"  --help",-44} Show this help and exit.");
        output.WriteLine($"{"  --version",-44} Show the version and exit.");
        output.WriteLine();
        output.WriteLine($"Example: {ToolName} --port 8080 --http_port 8081, then open http://127.0.0.1:8081/ for the dashboard.");
    }
}
