using NATS.Client.Core;

namespace JsonRpc.LoadTest.Engine;

/// <summary>
/// The NATS peer's echo provider: one NATS.Net connection subscribed to the echo subject in a queue group (so that
/// several responders share the requests, as the router shares calls among providers), replying to each request
/// with its own data.
/// </summary>
internal sealed class NatsEchoResponder : IEchoProvider
{
    private readonly NatsConnection _connection;
    private readonly INatsSub<NatsMemoryOwner<byte>> _subscription;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _serving;

    private NatsEchoResponder(NatsConnection connection, INatsSub<NatsMemoryOwner<byte>> subscription)
    {
        _connection = connection;
        _subscription = subscription;
        _serving = ServeAsync();
    }

    public string? Failure { get; private set; }

    public static async Task<NatsEchoResponder> StartAsync(string url, string name, CancellationToken cancellationToken)
    {
        var connection = await NatsConnections.ConnectAsync(url, name, cancellationToken).ConfigureAwait(false);
        try
        {
            var subscription = await connection.SubscribeCoreAsync<NatsMemoryOwner<byte>>(NatsConnections.Subject, queueGroup: NatsConnections.Subject, cancellationToken: cancellationToken).ConfigureAwait(false);

            // A round trip to the server, so that the subscription is in place before any caller sends.
            await connection.PingAsync(cancellationToken).ConfigureAwait(false);
            return new NatsEchoResponder(connection, subscription);
        }
        catch
        {
            await connection.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    private async Task ServeAsync()
    {
        await Task.Yield();
        var token = _stop.Token;
        try
        {
            var messages = _subscription.Msgs;
            while (await messages.WaitToReadAsync(token).ConfigureAwait(false))
            {
                while (messages.TryRead(out var message))
                {
                    using var data = message.Data;
                    await message.ReplyAsync(data.Memory, cancellationToken: token).ConfigureAwait(false);
                }
            }

            if (!token.IsCancellationRequested)
            {
                Failure = "the responder's subscription ended";
            }
        }
        catch (OperationCanceledException) when (token.IsCancellationRequested)
        {
        }
        catch (NatsException ex)
        {
            Failure = token.IsCancellationRequested ? null : $"responder failed: {ex.Message}";
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        await _serving.ConfigureAwait(false);
        await _subscription.DisposeAsync().ConfigureAwait(false);
        await _connection.DisposeAsync().ConfigureAwait(false);
        _stop.Dispose();
    }
}
