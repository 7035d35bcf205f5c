using Calculator;

// dotnet run --project samples/Calculator -- provider [--host 127.0.0.1] [--port 8080]
// dotnet run --project samples/Calculator -- caller   [--host 127.0.0.1] [--port 8080]
var mode = args.Length > 0 ? args[0] : "help";
var host = Option("--host") ?? "127.0.0.1";
var port = int.Parse(Option("--port") ?? "8080", System.Globalization.CultureInfo.InvariantCulture);

switch (mode)
{
    case "provider":
    {
        using var stop = new CancellationTokenSource();
        Console.CancelKeyPress += (_, e) => { e.Cancel = true; stop.Cancel(); };
        await using var provider = await CalculatorProvider.StartAsync(host, port);
        Console.WriteLine($"calculator registered with the router at {host}:{port}: serving subtract and add. Ctrl+C to stop.");
        try
        {
            await Task.Delay(Timeout.Infinite, stop.Token);
        }
        catch (OperationCanceledException)
        {
        }

        return 0;
    }

    case "caller":
        return await CalculatorCaller.RunAsync(host, port, Console.Out) == 0 ? 0 : 1;

    default:
        Console.WriteLine("usage: Calculator provider|caller [--host HOST] [--port PORT]");
        return 2;
}

string? Option(string name)
{
    var index = Array.IndexOf(args, name);
    return index >= 0 && index + 1 < args.Length ? args[index + 1] : null;
}
