namespace JsonRpc.Testing;

/// <summary>Where the repository and the other projects' build output are, seen from a test assembly's folder.</summary>
public static class RepositoryLayout
{
    /// <summary>The folder holding JsonRpc.sln, found upwards from the test assembly.</summary>
    /// <exception cref="InvalidOperationException">The tests do not run from inside the repository.</exception>
    public static string Root { get; } = FindRoot();

    /// <summary>
    /// The path of <paramref name="fileName"/> in the output of the project in <paramref name="projectFolder"/> (relative
    /// to <see cref="Root"/>), built with the same configuration and framework as the running tests
    /// (tests/X/bin/Release/net10.0/ gives src/Y/bin/Release/net10.0/).
    /// </summary>
    /// <exception cref="FileNotFoundException">The project has not been built.</exception>
    public static string BuiltFile(string projectFolder, string fileName)
    {
        var output = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
        var framework = output.Name;
        var configuration = output.Parent!.Name;
        var path = Path.Combine(Root, projectFolder, "bin", configuration, framework, fileName);
        return File.Exists(path) ? path : throw new FileNotFoundException($"{path} is not built.", path);
    }

    private static string FindRoot()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "JsonRpc.sln")))
            {
                return folder.FullName;
            }
        }

        throw new InvalidOperationException($"No JsonRpc.sln above {AppContext.BaseDirectory}.");
    }
}
