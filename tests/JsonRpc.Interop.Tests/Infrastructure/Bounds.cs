namespace JsonRpc.Interop.Tests.Infrastructure;

/// <summary>Time bounds: generous, as the machine may be loaded; only failures wait this long.</summary>
public static class Bounds
{
    /// <summary>How long any single step of a test may take.</summary>
    public static readonly TimeSpan Step = JsonRpc.Testing.Bounded.Timeout;

    /// <summary>How long a handler that should be cancelled would run if it were not.</summary>
    public static readonly TimeSpan Forever = TimeSpan.FromSeconds(60);

    /// <summary>How soon a cancelled caller must see its call end (from the issue).</summary>
    public static readonly TimeSpan Cancel = TimeSpan.FromSeconds(1);
}
