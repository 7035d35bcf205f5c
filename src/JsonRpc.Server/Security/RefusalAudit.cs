using JsonRpc.Server.Diagnostics;
using Microsoft.Extensions.Logging;

namespace JsonRpc.Server.Security;

/// <summary>
/// Records every refusal: a counter per reason, and a warning naming the identity, connection, what was refused and the
/// rule that refused it, at most <see cref="JsonRpcSecurityOptions.AuditLogsPerSecond"/> lines a second. Refusals past
/// that are counted and the next line written says how many were not logged, so a flood of refused calls cannot become
/// a flood of log lines (nor hide that it happened).
/// </summary>
internal sealed class RefusalAudit(ILogger logger)
{
    private readonly long[] _counts = new long[RefusalReasons.All.Length];
    private readonly Lock _lock = new();
    private long _second;
    private int _logged;
    private long _suppressed;

    public long Count(RefusalReason reason) => Volatile.Read(ref _counts[(int)reason]);

    public long Total
    {
        get
        {
            long total = 0;
            foreach (var reason in RefusalReasons.All)
            {
                total += Count(reason);
            }

            return total;
        }
    }

    /// <summary>Counts and (within the rate) logs a refusal. <paramref name="what"/> is the method, event or name.</summary>
    public void Refused(RefusalReason reason, string? identity, string connectionId, string? what, string rule, int logsPerSecond)
    {
        Interlocked.Increment(ref _counts[(int)reason]);
        long suppressed;
        lock (_lock)
        {
            var second = Environment.TickCount64 / 1000;
            if (second != _second)
            {
                _second = second;
                _logged = 0;
            }

            if (_logged >= logsPerSecond)
            {
                _suppressed++;
                return;
            }

            _logged++;
            suppressed = _suppressed;
            _suppressed = 0;
        }

        var name = RefusalReasons.Name(reason);
        var who = identity ?? SecurityPolicy.AnonymousIdentity;
        what ??= reason == RefusalReason.Authentication ? "token" : "-";
        if (suppressed == 0)
        {
            RouterLog.Refused(logger, name, who, connectionId, what, rule);
        }
        else
        {
            RouterLog.RefusedAfterSuppressed(logger, name, who, connectionId, what, rule, suppressed);
        }
    }
}
