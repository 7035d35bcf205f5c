namespace CudaWorker.Compute;

internal abstract partial class ComputeBackend
{
    private void CheckVectors(int first, int second, string firstName, string secondName)
    {
        if (first != second)
        {
            throw Shape($"'{firstName}' and '{secondName}' must have the same length, but '{firstName}' has {first} elements and '{secondName}' has {second}.");
        }

        CheckElements(first, firstName);
    }

    private void CheckMatMul(int aLength, int bLength, int m, int k, int n)
    {
        CheckDimension(m, "m");
        CheckDimension(k, "k");
        CheckDimension(n, "n");
        CheckMatrix(aLength, m, k, "a", "m*k");
        CheckMatrix(bLength, k, n, "b", "k*n");
        CheckElements(aLength, "a");
        CheckElements(bLength, "b");

        var resultLength = (long)m * n;
        if (resultLength > Limits.MaxElements)
        {
            throw Shape($"The result would hold m*n = {m}*{n} = {resultLength} elements, more than the limit of {Limits.MaxElements}.");
        }

        // m*k and n each fit in an int here, so the product cannot overflow a long.
        var multiplyAdds = (long)aLength * n;
        if (multiplyAdds > Limits.MaxMultiplyAdds)
        {
            throw Shape($"m*k*n = {m}*{k}*{n} = {multiplyAdds} multiply-adds, more than the limit of {Limits.MaxMultiplyAdds}.");
        }
    }

    private void CheckElements(long length, string name)
    {
        if (length > Limits.MaxElements)
        {
            throw Shape($"'{name}' has {length} elements, more than the limit of {Limits.MaxElements}.");
        }
    }

    private static void CheckDimension(int value, string name)
    {
        if (value <= 0)
        {
            throw Shape($"'{name}' must be a positive integer, but is {value}.");
        }
    }

    private static void CheckMatrix(int length, int rows, int columns, string name, string product)
    {
        var expected = (long)rows * columns;
        if (length != expected)
        {
            throw Shape($"'{name}' must hold {product} = {rows}*{columns} = {expected} elements (row-major), but has {length}.");
        }
    }

    private static ComputeShapeException Shape(string message) => new(message);
}
