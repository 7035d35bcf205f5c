namespace JsonRpc.LoadTest.Engine;

/// <summary>A connection that registered the <c>echo</c> method with the router and answers it.</summary>
internal interface IEchoProvider : IAsyncDisposable
{
    /// <summary>Why it stopped serving before it was told to, or null.</summary>
    string? Failure { get; }
}
