using System.Runtime.InteropServices;

namespace JsonRpc.LoadTest.Engine;

/// <summary>The one libc call the tool needs: a signal to a process it started (SIGTERM, for a graceful stop).</summary>
internal static class NativeMethods
{
    public const int SigTerm = 15;

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    public static extern int Kill(int pid, int signal);
}
