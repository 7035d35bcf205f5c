namespace JsonRpc.Testing;

/// <summary>Where the build put the standalone router, for tests that run it as a real process.</summary>
public static class RouterBuild
{
    /// <summary>
    /// The JsonRpc.Router.dll built in the test's own configuration and framework:
    /// tests/X/bin/&lt;Configuration&gt;/net10.0/ → src/JsonRpc.Router/bin/&lt;Configuration&gt;/net10.0/.
    /// </summary>
    /// <exception cref="InvalidOperationException">The repository or the built router cannot be found.</exception>
    public static string FindRouterDll()
    {
        var baseDirectory = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
        var framework = baseDirectory.Name;
        var configuration = baseDirectory.Parent!.Name;
        var root = baseDirectory;
        while (root is not null && !File.Exists(Path.Combine(root.FullName, "JsonRpc.sln")))
        {
            root = root.Parent;
        }

        if (root is null)
        {
            throw new InvalidOperationException($"No JsonRpc.sln above {AppContext.BaseDirectory}.");
        }

        var dll = Path.Combine(root.FullName, "src", "JsonRpc.Router", "bin", configuration, framework, "JsonRpc.Router.dll");
        return File.Exists(dll) ? dll : throw new InvalidOperationException($"{dll} is not built.");
    }
}
