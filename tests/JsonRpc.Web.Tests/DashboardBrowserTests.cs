using System.Text.Json;
using JsonRpc.Client;
using JsonRpc.Protocol;
using JsonRpc.Web.Tests.Infrastructure;
using Microsoft.Playwright;

namespace JsonRpc.Web.Tests;

/// <summary>The dashboard in a real browser (Debian's chromium driven by Playwright) against the real router.</summary>
public sealed class DashboardBrowserTests(ITestOutputHelper output)
{
    private const float WaitMs = 20_000;

    [ChromiumFact]
    public async Task Dashboard_ShowsTcpProvider_CallsItsMethodThroughTheForm()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        await using var provider = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).Within();
        provider.AddRawMethod("math.add", static (p, _) =>
        {
            var args = JsonDocument.Parse(p.ToString()).RootElement;
            return ValueTask.FromResult(RawJson.Parse((args[0].GetInt32() + args[1].GetInt32()).ToString(System.Globalization.CultureInfo.InvariantCulture)));
        });
        await provider.RegisterAsync("tcp-calculator").Within();

        using var playwright = await Playwright.CreateAsync();
        await using var browser = await Browser.LaunchAsync(playwright);
        var page = await browser.NewPageAsync(new BrowserNewPageOptions { ViewportSize = new ViewportSize { Width = 1280, Height = 960 } });
        var consoleErrors = new List<string>();
        page.Console += (_, message) =>
        {
            if (message.Type == "error")
            {
                lock (consoleErrors)
                {
                    consoleErrors.Add(message.Text);
                }
            }
        };

        await page.GotoAsync(router.DashboardUri.ToString(), new PageGotoOptions { Timeout = WaitMs });
        await page.Locator("#status[data-state='open']").WaitForAsync(new() { Timeout = WaitMs });

        // The provider registered over TCP shows up, with its method and as a client.
        var row = page.Locator("#methods tr[data-method='math.add']");
        await row.WaitForAsync(new() { Timeout = WaitMs });
        Assert.Contains("tcp-calculator", await row.InnerTextAsync());
        await page.Locator("#clients tr[data-client='tcp-calculator']").WaitForAsync(new() { Timeout = WaitMs });
        Assert.Equal("1", await page.Locator("#stat-registered").InnerTextAsync());

        // An error answer is shown as one.
        await page.FillAsync("#call-method", "no.such.method");
        await page.ClickAsync("#call-submit");
        var failure = page.Locator("#call-result[data-state='error']");
        await failure.WaitForAsync(new() { Timeout = WaitMs });
        Assert.Contains("-32601", await failure.InnerTextAsync());

        // Call the TCP provider's method through the form and read the answer on the page.
        await page.FillAsync("#call-method", "math.add");
        await page.FillAsync("#call-params", "[40, 2]");
        await page.ClickAsync("#call-submit");
        var result = page.Locator("#call-result[data-state='ok']");
        await result.WaitForAsync(new() { Timeout = WaitMs });
        Assert.Equal("42", (await result.InnerTextAsync()).Trim());

        // The live chart: traffic from a WebSocket client (calls, and a few errors) shows within the next updates.
        await using var caller = await JsonRpcClient.ConnectAsync(router.WebSocketUri).Within();
        var shown = await DriveTrafficAsync(caller, page, TimeSpan.FromSeconds(6));
        Assert.True(shown > 0, "The dashboard never showed calls per second.");
        Assert.True(await page.EvaluateAsync<bool>("() => document.getElementById('chart').width > 0"));

        var screenshot = Path.Combine(AppContext.BaseDirectory, "dashboard.png");
        await page.ScreenshotAsync(new PageScreenshotOptions { Path = screenshot, FullPage = true });
        output.WriteLine("Screenshot: " + screenshot);
        lock (consoleErrors)
        {
            Assert.Empty(consoleErrors);
        }
    }

    /// <summary>
    /// Calls from four loops for <paramref name="duration"/> (bounded in count too), one call in 40 to a missing
    /// method; returns the highest calls per second the page showed.
    /// </summary>
    private static async Task<double> DriveTrafficAsync(JsonRpcClient caller, IPage page, TimeSpan duration)
    {
        var until = DateTime.UtcNow + duration;
        var loops = Enumerable.Range(0, 4).Select(async loop =>
        {
            for (var i = 0; i < 200_000 && DateTime.UtcNow < until; i++)
            {
                try
                {
                    await caller.CallAsync(i % 40 == 39 ? "missing.method" : "math.add", RawJson.Parse("[1,2]")).Within();
                }
                catch (JsonRpcRemoteException)
                {
                    // The errors the chart shows.
                }

                if (i % 100 == 99)
                {
                    await Task.Delay(loop * 2 + (DateTime.UtcNow.Second % 3)); // an uneven rate makes a readable chart
                }
            }
        }).ToArray();

        var highest = 0.0;
        while (!Task.WhenAll(loops).IsCompleted)
        {
            await Task.Delay(250);
            if (double.TryParse(await page.Locator("#stat-calls-rate").InnerTextAsync(), System.Globalization.NumberStyles.Float,
                    System.Globalization.CultureInfo.InvariantCulture, out var rate))
            {
                highest = Math.Max(highest, rate);
            }
        }

        await Task.WhenAll(loops).Within();
        return highest;
    }
}
