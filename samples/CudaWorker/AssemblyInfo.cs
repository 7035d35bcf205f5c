using System.Runtime.CompilerServices;

[module: SkipLocalsInit]
