namespace System.Runtime.CompilerServices;

// netstandard2.0 lacks it; records and init accessors need it.
internal static class IsExternalInit
{
}
