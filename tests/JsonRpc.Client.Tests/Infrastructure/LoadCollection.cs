namespace JsonRpc.Client.Tests.Infrastructure;

/// <summary>Tests in this collection run on their own, never beside other tests.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class LoadCollection
{
    public const string Name = "Load";
}
