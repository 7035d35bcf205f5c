namespace JsonRpc.LoadTest.Engine;

/// <summary>CPU counters at one moment: this process's CPU time and the machine's busy and total jiffies.</summary>
internal readonly record struct CpuSample(long Timestamp, TimeSpan ProcessTime, long MachineBusy, long MachineTotal);
