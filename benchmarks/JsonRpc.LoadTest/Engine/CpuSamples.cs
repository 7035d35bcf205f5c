namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// Readings at the start and the end of the measured window: this machine, and the server's process where it runs
/// apart (its CPU time, its RSS at the end, and its system calls counted by perf over the window).
/// </summary>
internal readonly record struct CpuSamples(CpuSample Start, CpuSample End, TimeSpan ServerStart, TimeSpan ServerEnd, long ServerRss, SyscallRate? ServerSyscalls = null);
