using System.Runtime.CompilerServices;

[module: SkipLocalsInit]
[assembly: InternalsVisibleTo("JsonRpc.Server.Tests")]
