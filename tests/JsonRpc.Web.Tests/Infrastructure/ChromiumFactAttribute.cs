namespace JsonRpc.Web.Tests.Infrastructure;

/// <summary>A fact that drives Debian's chromium: skipped, with the reason, where it is not installed (never under CI).</summary>
public sealed class ChromiumFactAttribute : FactAttribute
{
    public const string ChromiumPath = "/usr/bin/chromium";

    public ChromiumFactAttribute()
    {
        Skip = JsonRpc.Testing.RequiredServer.SkipIfAbsent(File.Exists(ChromiumPath),
            $"{ChromiumPath} is absent: install Debian's chromium (apt-get install -y chromium) to run the browser tests; .ci/run does.");
    }
}
