using System.Text.Json;
using JsonRpc.Client;
using JsonRpc.Protocol;
using JsonRpc.Server;
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

        // The method field suggests the registered methods and the router's own (from rpc.discover).
        await page.Locator("#method-names option[value='get_server_stats']").WaitForAsync(new() { State = WaitForSelectorState.Attached, Timeout = WaitMs });
        Assert.Equal(1, await page.Locator("#method-names option[value='math.add']").CountAsync());

        // Without a security policy there is nothing to sign in to: no form, no identities.
        Assert.True(await page.Locator("#login").IsHiddenAsync());
        Assert.True(await page.Locator("#login-show").IsHiddenAsync());
        Assert.True(await page.Locator("#security").IsHiddenAsync());

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
        await AssertCallFormOnOneRowAsync(page, "#call-params-label");

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

    [ChromiumFact]
    public async Task Dashboard_ShowsTheMethodsDescription_AndBuildsTheCallFormFromItsParamsSchema()
    {
        await using var router = await RouterHost.StartAsync(http: true);
        await using var provider = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port).Within();
        provider.AddMethod("text.repeat", (Func<string, int, bool, string>)((text, times, shout) =>
            string.Concat(Enumerable.Repeat(shout ? text.ToUpperInvariant() : text, times))));
        Assert.True(provider.DescribeMethod("text.repeat", "Repeats a text.", "As many times as asked, loud or not."));
        await provider.RegisterAsync("texts").Within();

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
        var summary = page.Locator("#methods tr[data-method='text.repeat'] td.summary", new() { HasTextString = "Repeats a text." });
        await summary.WaitForAsync(new() { Timeout = WaitMs });

        // Choosing the method shows its description and one field per param, typed after its schema.
        await page.FillAsync("#call-method", "text.repeat");
        await page.Locator("#call-fields [data-param='times']").WaitForAsync(new() { Timeout = WaitMs });
        Assert.Contains("As many times as asked", await page.Locator("#call-summary").InnerTextAsync());
        Assert.Equal("number", await page.Locator("#call-fields [data-param='times']").GetAttributeAsync("type"));
        Assert.Equal("text", await page.Locator("#call-fields [data-param='text']").GetAttributeAsync("type"));
        Assert.Equal("select", await page.Locator("#call-fields [data-param='shout']").EvaluateAsync<string>("e => e.tagName.toLowerCase()"));
        Assert.True(await page.Locator("#call-params-label").IsHiddenAsync());
        await AssertCallFormOnOneRowAsync(page, "#call-fields label.param");

        await page.FillAsync("#call-fields [data-param='text']", "ab");
        await page.FillAsync("#call-fields [data-param='times']", "3");
        await page.SelectOptionAsync("#call-fields [data-param='shout']", "true");
        await page.ClickAsync("#call-submit");
        var result = page.Locator("#call-result[data-state='ok']");
        await result.WaitForAsync(new() { Timeout = WaitMs });
        Assert.Equal("\"ABABAB\"", (await result.InnerTextAsync()).Trim());

        // A method without a description keeps the JSON params box.
        await page.FillAsync("#call-method", "keepAlive-not-described");
        await page.Locator("#call-params-label").WaitForAsync(new() { State = WaitForSelectorState.Visible, Timeout = WaitMs });
        lock (consoleErrors)
        {
            Assert.Empty(consoleErrors);
        }
    }

    /// <summary>
    /// The call form reads left to right on one row: the method's label and the (first) params label on one line, the
    /// method box and the params box beginning on one line, the button beside them, and the description under them.
    /// </summary>
    private static async Task AssertCallFormOnOneRowAsync(IPage page, string paramsLabel)
    {
        var method = await BoxAsync(page, "#call-method-label");
        var @params = await BoxAsync(page, paramsLabel);
        var input = await BoxAsync(page, "#call-method");
        var firstParam = await BoxAsync(page, paramsLabel + " :is(input, select, textarea)");
        var button = await BoxAsync(page, "#call-submit");
        var summary = await BoxAsync(page, "#call-summary");
        const float Tolerance = 2;
        Assert.InRange(@params.Y - method.Y, -Tolerance, Tolerance);
        Assert.InRange(firstParam.Y - input.Y, -Tolerance, Tolerance);
        Assert.InRange(button.Y - input.Y, -Tolerance, Tolerance);
        Assert.True(method.X + method.Width <= @params.X && @params.X + @params.Width <= button.X,
            $"Expected method, params and button from left to right: {method.X}, {@params.X}, {button.X}.");
        Assert.True(summary.Y >= input.Y + input.Height, $"Expected the description under the form's row: {summary.Y} < {input.Y + input.Height}.");
    }

    private static async Task<LocatorBoundingBoxResult> BoxAsync(IPage page, string selector)
        => await page.Locator(selector).First.BoundingBoxAsync() ?? throw new Xunit.Sdk.XunitException($"{selector} is not visible.");

    private const string NarrowToken = "billing-web-token-5f1e";
    private const string MonitorToken = "ops-token-9c2a";
    private const string ProviderToken = "backend-token-77d0";

    [ChromiumFact]
    public async Task Dashboard_WithSecurity_AsksForAToken_ShowsWhatEachIdentityMaySee()
    {
        await using var router = await RouterHost.StartAsync(options => options.Security = DashboardSecurity(), http: true);
        await using var provider = await JsonRpcClient.ConnectAsync("127.0.0.1", router.Port,
            new JsonRpcClientOptions { AccessToken = ProviderToken }).Within();
        provider.AddRawMethod("billing.charge", static (_, _) => ValueTask.FromResult(RawJson.Parse("\"charged\"")));
        provider.AddRawMethod("hr.salary", static (_, _) => ValueTask.FromResult(RawJson.Parse("1000")));
        await provider.RegisterAsync("backend-1").Within();

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

        // Every WebSocket of the page goes through Playwright (passed on as it is), so that the test can drop one: the
        // routes kept are the server sides.
        var sockets = new List<IWebSocketRoute>();
        await page.RouteWebSocketAsync(new System.Text.RegularExpressions.Regex("/rpc$"), socket =>
        {
            var server = socket.ConnectToServer();
            lock (sockets)
            {
                sockets.Add(server);
            }
        });

        await page.GotoAsync(router.DashboardUri.ToString(), new PageGotoOptions { Timeout = WaitMs });
        await page.Locator("#status[data-state='open']").WaitForAsync(new() { Timeout = WaitMs });

        // Not signed in: the router refuses the lists (-32016), so the page asks for a token and shows only the
        // router-wide counters.
        await page.Locator("#login").WaitForAsync(new() { State = WaitForSelectorState.Visible, Timeout = WaitMs });
        Assert.Equal("password", await page.Locator("#login-token").GetAttributeAsync("type"));
        Assert.Contains("Sign in", await page.Locator("#methods").InnerTextAsync());
        Assert.Equal(0, await page.Locator("#methods tr[data-method]").CountAsync());
        Assert.Equal(0, await page.Locator("#clients tr[data-client]").CountAsync());
        await WaitForTextAsync(page, "#stat-registered", "1");
        Assert.True(await page.Locator("#identity").IsHiddenAsync());

        // A wrong token: the router answers -32005 and closes the connection; the page says so and reconnects.
        await page.FillAsync("#login-token", "not-a-token");
        await page.ClickAsync("#login-submit");
        var error = page.Locator("#login-error");
        await error.WaitForAsync(new() { State = WaitForSelectorState.Visible, Timeout = WaitMs });
        Assert.Contains("refused", await error.InnerTextAsync());
        Assert.Equal("-32005", await error.GetAttributeAsync("data-code"));
        Assert.Equal("", await page.InputValueAsync("#login-token"));
        await page.Locator("#status[data-state='open']").WaitForAsync(new() { Timeout = WaitMs });
        await WaitForScreenshotAsync(page, "dashboard-login.png");

        // The narrow identity's token: it sees the method it may call (and the client providing it), not the other.
        await page.FillAsync("#login-token", NarrowToken);
        await page.ClickAsync("#login-submit");
        await page.Locator("#identity[data-identity='billing-web']").WaitForAsync(new() { Timeout = WaitMs });
        Assert.Equal("signed in as billing-web", (await page.Locator("#identity").InnerTextAsync()).Trim());
        Assert.True(await page.Locator("#login").IsHiddenAsync());
        await page.Locator("#methods tr[data-method='billing.charge']").WaitForAsync(new() { Timeout = WaitMs });
        Assert.Equal(0, await page.Locator("#methods tr[data-method='hr.salary']").CountAsync());
        await page.Locator("#clients tr[data-client='backend-1']").WaitForAsync(new() { Timeout = WaitMs });

        // Its calls go as that identity: billing.charge answers, hr.salary is refused (-32014).
        await page.FillAsync("#call-method", "billing.charge");
        await page.ClickAsync("#call-submit");
        await page.Locator("#call-result[data-state='ok']").WaitForAsync(new() { Timeout = WaitMs });
        await page.FillAsync("#call-method", "hr.salary");
        await page.ClickAsync("#call-submit");
        var refused = page.Locator("#call-result[data-state='error']");
        await refused.WaitForAsync(new() { Timeout = WaitMs });
        Assert.Contains("-32014", await refused.InnerTextAsync());

        // It sees its own identity's counters only.
        await WaitForTextAsync(page, "#identities tr[data-identity='billing-web'] td[data-counter='calls']", "1");
        await WaitForTextAsync(page, "#identities tr[data-identity='billing-web'] td[data-counter='refusals']", "1");
        Assert.Equal("1", await Counter(page, "billing-web", "connections"));
        Assert.Equal(1, await page.Locator("#identities tr[data-identity]").CountAsync());
        await WaitForTextAsync(page, "#refusals tr[data-reason='call'] td.num", "1");
        Assert.Equal("1", (await page.Locator("#refusals tr[data-reason='authentication'] td.num").InnerTextAsync()).Trim());

        // The connection drops: the page reconnects and signs in again with the token it kept, by itself.
        IWebSocketRoute current;
        lock (sockets)
        {
            current = sockets[^1];
        }

        await current.CloseAsync(new() { Code = 1000, Reason = "test: connection dropped" });
        await page.Locator("#status[data-state='closed']").WaitForAsync(new() { Timeout = WaitMs });
        await page.Locator("#identity[data-identity='billing-web']").WaitForAsync(new() { Timeout = WaitMs });
        await page.Locator("#status[data-state='open']").WaitForAsync(new() { Timeout = WaitMs });
        Assert.True(await page.Locator("#login").IsHiddenAsync());
        await page.Locator("#methods tr[data-method='billing.charge']").WaitForAsync(new() { Timeout = WaitMs });
        await WaitForTextAsync(page, "#identities tr[data-identity='billing-web'] td[data-counter='connections']", "1");
        Assert.Equal("1", (await page.Locator("#refusals tr[data-reason='authentication'] td.num").InnerTextAsync()).Trim());

        // Signing out opens a new, anonymous connection; the monitor's token then sees every method and identity.
        await page.ClickAsync("#logout");
        await page.Locator("#login").WaitForAsync(new() { State = WaitForSelectorState.Visible, Timeout = WaitMs });
        Assert.Equal(0, await page.Locator("#methods tr[data-method]").CountAsync());
        await page.Locator("#status[data-state='open']").WaitForAsync(new() { Timeout = WaitMs });
        await page.FillAsync("#login-token", MonitorToken);
        await page.ClickAsync("#login-submit");
        await page.Locator("#identity[data-identity='ops']").WaitForAsync(new() { Timeout = WaitMs });
        await page.Locator("#methods tr[data-method='hr.salary']").WaitForAsync(new() { Timeout = WaitMs });
        await page.Locator("#methods tr[data-method='billing.charge']").WaitForAsync(new() { Timeout = WaitMs });
        await page.Locator("#identities tr[data-identity='backend']").WaitForAsync(new() { Timeout = WaitMs });
        await WaitForTextAsync(page, "#identities tr[data-identity='billing-web'] td[data-counter='connections']", "0");
        Assert.Equal("1", await Counter(page, "billing-web", "calls"));
        Assert.Equal("1", await Counter(page, "billing-web", "refusals"));
        Assert.Equal("0", await Counter(page, "billing-web", "rate_limited"));
        Assert.Equal("1", await Counter(page, "ops", "connections"));
        Assert.Equal("1", await Counter(page, "backend", "connections"));
        Assert.Equal("0", await Counter(page, "backend", "in_flight"));
        await WaitForScreenshotAsync(page, "dashboard-identities.png");

        // No token is ever on the page.
        var html = await page.ContentAsync();
        Assert.DoesNotContain(NarrowToken, html, StringComparison.Ordinal);
        Assert.DoesNotContain(MonitorToken, html, StringComparison.Ordinal);
        Assert.DoesNotContain("not-a-token", html, StringComparison.Ordinal);
        Assert.Equal(0, await page.EvaluateAsync<int>("() => localStorage.length + sessionStorage.length"));
        Assert.DoesNotContain("token", page.Url, StringComparison.OrdinalIgnoreCase);
        lock (consoleErrors)
        {
            Assert.Empty(consoleErrors);
        }

        async Task WaitForScreenshotAsync(IPage shot, string name)
        {
            var path = Path.Combine(AppContext.BaseDirectory, name);
            await shot.ScreenshotAsync(new PageScreenshotOptions { Path = path, FullPage = true });
            output.WriteLine("Screenshot: " + path);
        }
    }

    /// <summary>Two token identities (a monitor and one that may call only <c>billing.*</c>) and the provider's.</summary>
    private static JsonRpcSecurityOptions DashboardSecurity()
    {
        var security = new JsonRpcSecurityOptions
        {
            Tokens =
            {
                new JsonRpcTokenIdentity { Identity = "ops", Token = MonitorToken },
                new JsonRpcTokenIdentity { Identity = "billing-web", Token = NarrowToken },
                new JsonRpcTokenIdentity { Identity = "backend", Token = ProviderToken },
            },
        };
        security.Identities["ops"] = new JsonRpcIdentityRules { Monitor = true };
        security.Identities["billing-web"] = new JsonRpcIdentityRules { Call = new JsonRpcPermission { Allow = ["billing.*"] } };
        security.Identities["backend"] = new JsonRpcIdentityRules { Provide = new JsonRpcPermission { Allow = ["billing.>", "hr.>"] } };
        return security;
    }

    private static async Task<string> Counter(IPage page, string identity, string counter)
        => (await page.Locator($"#identities tr[data-identity='{identity}'] td[data-counter='{counter}']").InnerTextAsync()).Trim();

    /// <summary>Waits until the element's text is <paramref name="expected"/> (the page updates once a second).</summary>
    private static async Task WaitForTextAsync(IPage page, string selector, string expected)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromMilliseconds(WaitMs);
        var last = "";
        while (DateTime.UtcNow < deadline)
        {
            var element = page.Locator(selector);
            if (await element.CountAsync() > 0)
            {
                last = (await element.First.InnerTextAsync()).Trim();
                if (last == expected)
                {
                    return;
                }
            }

            await Task.Delay(100);
        }

        Assert.Fail($"{selector} showed '{last}', not '{expected}'.");
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
