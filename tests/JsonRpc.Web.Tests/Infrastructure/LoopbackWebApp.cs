using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Web.Tests.Infrastructure;

/// <summary>A minimal ASP.NET Core app on 127.0.0.1, on a port the system picks: a stand-in server for a test.</summary>
public static class LoopbackWebApp
{
    /// <summary>Builds the app, lets <paramref name="map"/> add its routes and middleware, starts it; returns it and its base address.</summary>
    public static async Task<(WebApplication App, Uri BaseUri)> StartAsync(Action<WebApplication> map)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(k => k.Listen(IPAddress.Loopback, 0));
        var app = builder.Build();
        map(app);
        await app.StartAsync().WaitAsync(TimeSpan.FromSeconds(30));
        var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        return (app, new Uri(address.Replace("[::1]", "127.0.0.1", StringComparison.Ordinal)));
    }
}
