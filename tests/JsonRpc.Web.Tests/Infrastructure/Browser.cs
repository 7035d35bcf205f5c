using Microsoft.Playwright;

namespace JsonRpc.Web.Tests.Infrastructure;

/// <summary>Playwright on the machine's own chromium: never a downloaded browser, nothing reaching out to the network.</summary>
public static class Browser
{
    public static Task<IBrowser> LaunchAsync(IPlaywright playwright) => playwright.Chromium.LaunchAsync(new BrowserTypeLaunchOptions
    {
        ExecutablePath = ChromiumFactAttribute.ChromiumPath,
        Headless = true,
        Timeout = 60_000,
        Args =
        [
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
        ],
    });
}
