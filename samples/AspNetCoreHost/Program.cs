using System.Globalization;
using AspNetCoreHost;

// dotnet run --project samples/AspNetCoreHost -- [--http-port 5000] [--router-port 8080]
var httpPort = int.Parse(Option("--http-port") ?? "5000", CultureInfo.InvariantCulture);
var routerPort = int.Parse(Option("--router-port") ?? "8080", CultureInfo.InvariantCulture);

var app = HostApp.Build(args, httpPort, routerPort);
await app.RunAsync();

string? Option(string name)
{
    var index = Array.IndexOf(args, name);
    return index >= 0 && index + 1 < args.Length ? args[index + 1] : null;
}
