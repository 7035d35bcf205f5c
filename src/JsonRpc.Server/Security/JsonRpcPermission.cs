namespace JsonRpc.Server;

/// <summary>Allow and deny patterns for one kind of permission; see <see cref="JsonRpcIdentityRules"/>.</summary>
public sealed class JsonRpcPermission
{
    /// <summary>Patterns allowed; null when this rule gives no allow list (then it restricts nothing).</summary>
    public IList<string>? Allow { get; set; }

    /// <summary>Patterns denied; a deny wins over any allow.</summary>
    public IList<string> Deny { get; set; } = [];
}
