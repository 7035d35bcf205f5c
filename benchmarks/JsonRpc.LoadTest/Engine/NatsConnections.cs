using NATS.Client.Core;

namespace JsonRpc.LoadTest.Engine;

/// <summary>How the NATS peer opens NATS.Net connections: no reconnecting (a lost connection is a failure to report), no request timeout short of the run's own bounds.</summary>
internal static class NatsConnections
{
    /// <summary>The subject the callers request and the responders serve (in one queue group).</summary>
    public const string Subject = "echo";

    public static async Task<NatsConnection> ConnectAsync(string url, string name, CancellationToken cancellationToken)
    {
        var connection = new NatsConnection(NatsOpts.Default with
        {
            Url = url,
            Name = name,
            RequestTimeout = TimeSpan.FromMinutes(10),
            MaxReconnectRetry = 0,
        });
        try
        {
            await connection.ConnectAsync().AsTask().WaitAsync(cancellationToken).ConfigureAwait(false);
            return connection;
        }
        catch
        {
            await connection.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }
}
