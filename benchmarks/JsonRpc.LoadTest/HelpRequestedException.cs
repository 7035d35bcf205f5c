namespace JsonRpc.LoadTest;

/// <summary>Thrown by <see cref="LoadOptions.Parse"/> for <c>--help</c>.</summary>
public sealed class HelpRequestedException : ArgumentException
{
    /// <summary>Creates the exception.</summary>
    public HelpRequestedException()
        : base("Help requested.")
    {
    }
}
