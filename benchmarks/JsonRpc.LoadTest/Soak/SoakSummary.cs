using System.Globalization;
using JsonRpc.LoadTest.Report;

namespace JsonRpc.LoadTest.Soak;

/// <summary>The soak's summary, as printed at the end and kept beside its report.</summary>
public static class SoakSummary
{
    public static void Print(SoakReport report, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(report);
        ArgumentNullException.ThrowIfNull(output);
        string Line(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
        output.WriteLine();
        output.WriteLine(Line($"Soak: {report.Seconds:N0} s, {report.Faults.Count} faults injected; {report.Machine.Cpu}, {report.Machine.Cores} cores, {report.Machine.Dotnet}"));
        output.WriteLine(Line($"  raw calls      {report.Sent:N0} sent: {report.Results:N0} results, {report.Errors:N0} errors, {report.Abandoned:N0} abandoned with their connection"));
        output.WriteLine(Line($"                 lost {report.Lost}, lost with a connection {report.LostWithConnection}, wrong {report.Mismatches}, strays {report.Strays}; {report.Notices} notices without an id, {report.ConnectFailures} failed connects"));
        output.WriteLine(Line($"  error codes    {string.Join(", ", report.ErrorCodes.Select(p => $"{p.Key}: {p.Value:N0}"))}"));
        output.WriteLine(Line($"  client calls   {report.ClientCalls:N0}: {report.ClientResults:N0} results, {report.ClientErrors:N0} errors, {report.ClientCancelled:N0} cancelled, {report.ClientConnectionLost:N0} connection lost, timed out {report.ClientTimedOut}, wrong {report.ClientMismatches}, hung {report.ClientHung}"));
        output.WriteLine(Line($"  events         {report.EventsPublished:N0} published, {report.EventsReceived:N0} received by two subscribers"));
        output.WriteLine(Line($"  node A         RSS {report.RssAtStartMb:N1} MB at start, {report.RssFirstRoundMb:N1} MB over the first round of faults, {report.RssAfterWarmupMb:N1} MB after settling ({report.SettledAtSeconds:N0}-{report.AfterWarmupUntilSeconds:N0} s, the first round after {report.SettleSeconds:N0} s), {report.RssAtEndMb:N1} MB at the end ({report.EndFromSeconds:N0}-{report.EndUntilSeconds:N0} s, {report.RssChange:+0.0%;-0.0%}); threads {report.ThreadsAfterWarmup:N0} -> {report.ThreadsAtEnd:N0}; handles {report.HandlesAfterWarmup:N0} -> {report.HandlesAtEnd:N0}"));
        output.WriteLine(Line($"  exactly one answer per call: {(report.ExactlyOnce ? "PASS" : "FAIL")}; RSS within 10%: {(report.NoLeak ? "PASS" : "FAIL")}"));
    }
}
