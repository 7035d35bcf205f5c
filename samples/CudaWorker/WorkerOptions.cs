using System.Globalization;
using CudaWorker.Compute;
using JsonRpc.Client;

namespace CudaWorker;

/// <summary>The command line of the worker and of the caller.</summary>
internal sealed record WorkerOptions
{
    /// <summary>The environment variable that may hold the access token.</summary>
    public const string AccessTokenVariable = "CUDAWORKER_ACCESS_TOKEN";

    /// <summary>What <c>--help</c> prints.</summary>
    public const string Usage = """
        Usage: CudaWorker [options]           serve the gpu.* methods through a JsonRpc router
               CudaWorker caller [options]    send work through the router, check it against the CPU, time it

        The worker serves gpu.vector_add, gpu.saxpy, gpu.matmul and gpu.info, on a CUDA GPU when one is usable and on
        the CPU otherwise.

        Options:
          --host <host>          the router's host (default 127.0.0.1)
          --port <port>          the router's port (default 8080)
          --max-message-size <bytes>
                                 the largest message accepted; match the router's max_message_size (default 4194304)
          --access-token <token> the token a router configured with access_token requires (or set
                                 CUDAWORKER_ACCESS_TOKEN, which keeps it out of the process list)
          -h, --help             print this help

        Worker options:
          --name <name>          the name this worker registers under (default cuda-worker-<process id>)
          --require-gpu          exit with code 3 instead of falling back to the CPU when no GPU is usable
          --device <ordinal>     the CUDA device to use (default 0)
          --max-elements <n>     the most elements one vector or matrix may have (default 16777216)

        Caller options:
          --size <n>             matrices are n x n, vectors n*n long (default 256)
          --count <n>            calls per method (default 5)

        Exit codes: 0 stopped by Ctrl+C or SIGTERM (worker) or every result checked out (caller); 1 the router cannot
        be reached, refused the registration, or the connection was lost; 2 bad command line; 3 GPU required but none
        usable; 4 a result did not match the caller's own computation.
        """;

    /// <summary>The router's host.</summary>
    public string Host { get; init; } = "127.0.0.1";

    /// <summary>The router's port.</summary>
    public int Port { get; init; } = 8080;

    /// <summary>The name the worker registers under; by default unique per process, so several workers can run at once.</summary>
    public string Name { get; init; } = $"cuda-worker-{Environment.ProcessId}";

    /// <summary>Exit instead of falling back to the CPU.</summary>
    public bool RequireGpu { get; init; }

    /// <summary>The CUDA device ordinal.</summary>
    public int Device { get; init; }

    /// <summary>The largest message the worker's connection accepts.</summary>
    public int MaxMessageSize { get; init; } = JsonRpcClientOptions.DefaultMaxMessageSize;

    /// <summary>The router's access token, if it requires one.</summary>
    public string? AccessToken { get; init; } = Environment.GetEnvironmentVariable(AccessTokenVariable) is { Length: > 0 } token ? token : null;

    /// <summary>The size limits.</summary>
    public ComputeLimits Limits { get; init; } = ComputeLimits.Default;

    /// <summary>Run as the caller (<c>caller</c> first) instead of the worker.</summary>
    public bool Caller { get; init; }

    /// <summary>The caller's matrix edge; vectors are Size*Size long.</summary>
    public int Size { get; init; } = 256;

    /// <summary>The caller's calls per method.</summary>
    public int Count { get; init; } = 5;

    /// <summary>Print the usage and exit.</summary>
    public bool ShowHelp { get; init; }

    /// <summary>Parses <paramref name="args"/>; accepts <c>--option value</c> and <c>--option=value</c>.</summary>
    /// <exception cref="FormatException">An unknown option, a missing value, or a value out of range.</exception>
    public static WorkerOptions Parse(IReadOnlyList<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        var caller = args.Count > 0 && args[0] == "caller";
        var options = new WorkerOptions { Caller = caller };
        for (var i = caller ? 1 : 0; i < args.Count; i++)
        {
            var arg = args[i];
            string? inline = null;
            var equals = arg.IndexOf('=', StringComparison.Ordinal);
            if (arg.StartsWith("--", StringComparison.Ordinal) && equals > 0)
            {
                inline = arg[(equals + 1)..];
                arg = arg[..equals];
            }

            options = arg switch
            {
                "--host" => options with { Host = NonEmpty(arg, Value(args, ref i, arg, inline)) },
                "--port" => options with { Port = Integer(arg, Value(args, ref i, arg, inline), 1, 65535) },
                "--name" when !caller => options with { Name = NonEmpty(arg, Value(args, ref i, arg, inline)) },
                "--device" when !caller => options with { Device = Integer(arg, Value(args, ref i, arg, inline), 0, 1024) },
                "--max-elements" when !caller => options with { Limits = options.Limits with { MaxElements = Integer(arg, Value(args, ref i, arg, inline), 1, Array.MaxLength) } },
                "--max-message-size" => options with { MaxMessageSize = Integer(arg, Value(args, ref i, arg, inline), 1024, Array.MaxLength) },
                "--access-token" => options with { AccessToken = NonEmpty(arg, Value(args, ref i, arg, inline)) },
                "--require-gpu" when inline is null && !caller => options with { RequireGpu = true },
                "--size" when caller => options with { Size = Integer(arg, Value(args, ref i, arg, inline), 1, 4096) },
                "--count" when caller => options with { Count = Integer(arg, Value(args, ref i, arg, inline), 1, 10_000) },
                "-h" or "--help" when inline is null => options with { ShowHelp = true },
                _ => throw new FormatException($"Unknown option '{args[i]}'{(caller ? " for the caller" : "")}."),
            };
        }

        return options;
    }

    private static string Value(IReadOnlyList<string> args, ref int i, string option, string? inline)
    {
        if (inline is not null)
        {
            return inline;
        }

        if (i + 1 >= args.Count)
        {
            throw new FormatException($"Option '{option}' needs a value.");
        }

        return args[++i];
    }

    private static string NonEmpty(string option, string value)
        => string.IsNullOrWhiteSpace(value) ? throw new FormatException($"Option '{option}' needs a non-empty value.") : value;

    private static int Integer(string option, string value, int min, int max)
        => int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var number) && number >= min && number <= max
            ? number
            : throw new FormatException($"Option '{option}' needs an integer from {min} to {max}, not '{value}'.");
}
