namespace JsonRpc.Testing;

/// <summary>How a process that ran to its exit ended: <c>var (exitCode, stdout, stderr) = await ChildProcess.RunAsync(...)</c>.</summary>
/// <param name="ExitCode">The exit code.</param>
/// <param name="Stdout">Everything written to standard output.</param>
/// <param name="Stderr">Everything written to standard error.</param>
public readonly record struct ProcessResult(int ExitCode, string Stdout, string Stderr);
