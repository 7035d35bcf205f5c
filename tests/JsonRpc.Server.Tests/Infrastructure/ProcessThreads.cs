using System.Globalization;

namespace JsonRpc.Server.Tests.Infrastructure;

/// <summary>
/// A process's threads seen from outside (Linux's /proc): each thread's name and the CPU it has spent, so that a test
/// can tell which kind of thread did the work between two looks.
/// </summary>
internal static class ProcessThreads
{
    // .NET names the threads that wait on epoll for sockets so (and its thread-pool workers ".NET TP Worker").
    public const string SocketThread = ".NET Sockets";
    public const string PoolThread = ".NET TP Worker";

    public sealed record ThreadTicks(int Id, string Name, long Ticks);

    /// <summary>Each thread's name and CPU time (user + system ticks) from /proc/PID/task/TID/{comm,stat}.</summary>
    public static List<ThreadTicks> Read(int pid)
    {
        var threads = new List<ThreadTicks>();
        foreach (var task in Directory.EnumerateDirectories($"/proc/{pid}/task"))
        {
            try
            {
                var name = File.ReadAllText(Path.Combine(task, "comm")).TrimEnd('\n');
                var stat = File.ReadAllText(Path.Combine(task, "stat"));
                var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' '); // after "pid (comm) ": state is field 3
                var ticks = long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture); // utime, stime
                threads.Add(new ThreadTicks(int.Parse(Path.GetFileName(task), CultureInfo.InvariantCulture), name, ticks));
            }
            catch (IOException)
            {
                // the thread ended while we looked
            }
        }

        return threads;
    }

    /// <summary>The CPU ticks the threads named <paramref name="name"/> spent from <paramref name="before"/> to <paramref name="after"/>.</summary>
    public static long Spent(IReadOnlyList<ThreadTicks> before, IReadOnlyList<ThreadTicks> after, string name)
        => after.Where(t => t.Name == name).Sum(t => t.Ticks - (before.FirstOrDefault(b => b.Id == t.Id)?.Ticks ?? 0));
}
