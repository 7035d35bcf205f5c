namespace JsonRpc.LoadTest;

/// <summary>Which caller implementations a run uses.</summary>
public enum CallerChoice
{
    /// <summary>The minimal socket caller only.</summary>
    Raw,

    /// <summary>JsonRpcClient only.</summary>
    Client,

    /// <summary>One run with each, one after the other.</summary>
    Both,
}
