namespace JsonRpc.Web.Tests.Infrastructure;

/// <summary>A fact that drives Debian's chromium: skipped, with the reason, where it is not installed.</summary>
public sealed class ChromiumFactAttribute : FactAttribute
{
    public const string ChromiumPath = "/usr/bin/chromium";

    public ChromiumFactAttribute()
    {
        if (!File.Exists(ChromiumPath))
        {
            Skip = $"{ChromiumPath} is absent: install Debian's chromium (apt-get install -y chromium) to run the browser tests; .ci/run does.";
        }
    }
}
