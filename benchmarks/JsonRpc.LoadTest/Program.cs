using System.Text.Json;
using JsonRpc.LoadTest;
using JsonRpc.LoadTest.Report;

// The router load generator: see LoadOptions.Usage, or run with --help.
LoadOptions options;
try
{
    options = LoadOptions.Parse(args);
}
catch (HelpRequestedException)
{
    Console.WriteLine(LoadOptions.Usage);
    return 0;
}
catch (ArgumentException ex)
{
    Console.Error.WriteLine(ex.Message);
    return 2;
}

JsonRpc.LoadTest.Engine.LoadAuth.Token = options.Token;
if (options.InlineIo)
{
    // Before this process opens its first socket: the runtime reads the switch once, then.
    JsonRpc.LoadTest.Engine.InlineSocketCompletions.Enable();
    if (!JsonRpc.LoadTest.Engine.InlineSocketCompletions.Enabled)
    {
        Console.Error.WriteLine($"--inline-io: the environment sets {JsonRpc.LoadTest.Engine.InlineSocketCompletions.Variable} to something other than 1; unset it or drop --inline-io.");
        return 2;
    }
}

using var interrupt = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) =>
{
    e.Cancel = true;
    interrupt.Cancel();
};

var overwrite = !Console.IsOutputRedirected;
try
{
    return await RunAsync(options, overwrite, interrupt.Token);
}
catch (Exception ex) when (ex is System.Net.Sockets.SocketException or IOException or InvalidOperationException or TimeoutException
    or OperationCanceledException or JsonException or UnauthorizedAccessException or InvalidDataException
    or JsonRpc.Client.JsonRpcRemoteException or JsonRpc.Client.JsonRpcConnectionLostException)
{
    // Nothing to measure: the router could not be reached or started, or a file could not be read or written.
    Console.Error.WriteLine($"error: {ex.Message}");
    return 3;
}

static async Task<int> RunAsync(LoadOptions options, bool overwrite, CancellationToken cancellationToken)
{
    LoadReport report;
    string? jsonPath = options.JsonPath;
    if (options.TableFolder is { } folder)
    {
        Console.Write(MarkdownTable.FromFolder(folder));
        if (options.PlotPath is { } peerPlot)
        {
            JsonRpc.LoadTest.Charts.PeerChart.Save(folder, peerPlot);
            Console.WriteLine($"Plot written to {peerPlot}");
        }

        return 0;
    }

    if (options is { PlotPath: { } replot, PlotFrom: { } from })
    {
        report = JsonSerializer.Deserialize(await File.ReadAllTextAsync(from), LoadReportJsonContext.Default.LoadReport)
            ?? throw new InvalidDataException($"{from} holds no report.");
        ConnectionSweep.Plot(report, replot);
        Console.WriteLine($"Plot written to {replot}");
        return 0;
    }

    if (options.Soak is not null)
    {
        var soak = await JsonRpc.LoadTest.Soak.SoakRun.RunAsync(options, Console.Out, cancellationToken);
        JsonRpc.LoadTest.Soak.SoakRun.Save(soak, options.SoakOutput);
        JsonRpc.LoadTest.Soak.SoakSummary.Print(soak, Console.Out);
        Console.WriteLine($"Soak report, samples and plot written to {options.SoakOutput}");
        return soak.Passed ? 0 : 1;
    }

    if (options.PlotPath is { } plot)
    {
        report = await ConnectionSweep.RunAsync(options, Console.Out, overwrite, cancellationToken);
        jsonPath ??= Path.ChangeExtension(plot, ".json");
        ConnectionSweep.Plot(report, plot);
        Console.WriteLine($"Plot written to {plot}");
    }
    else if (options.Streaming)
    {
        report = await StreamingRun.RunAsync(options, Console.Out, cancellationToken);
    }
    else if (options.Hostile is not null)
    {
        report = await JsonRpc.LoadTest.Hostile.HostileRun.RunAsync(options, Console.Out, cancellationToken);
    }
    else if (options.FloodToken is not null)
    {
        report = await JsonRpc.LoadTest.Neighbour.NeighbourRun.RunAsync(options, Console.Out, cancellationToken);
    }
    else if (options.StalledClient)
    {
        report = await StalledClientRun.RunAsync(options, Console.Out, cancellationToken);
    }
    else
    {
        report = await LoadRunner.RunAsync(options, Console.Out, overwrite, cancellationToken);
    }

    ReportPrinter.Print(report, Console.Out);
    if (jsonPath is not null)
    {
        await File.WriteAllTextAsync(jsonPath, JsonSerializer.Serialize(report, LoadReportJsonContext.Default.LoadReport) + "\n");
        Console.WriteLine($"Report written to {jsonPath}");
    }

    return report.AllCorrect ? 0 : 1;
}
