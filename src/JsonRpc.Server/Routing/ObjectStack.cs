namespace JsonRpc.Server.Routing;

/// <summary>
/// A small pool: a locked array stack that keeps up to a fixed number of objects and allocates nothing once warm
/// (unlike pools built on <c>ConcurrentQueue</c>, whose segments are allocated anew as they cycle).
/// </summary>
internal sealed class ObjectStack<T>(int capacity)
    where T : class, new()
{
    private readonly Lock _lock = new();
    private readonly T[] _items = new T[capacity];
    private int _count;

    public T Rent()
    {
        lock (_lock)
        {
            if (_count > 0)
            {
                var item = _items[--_count];
                _items[_count] = null!;
                return item;
            }
        }

        return new T();
    }

    public void Return(T item)
    {
        lock (_lock)
        {
            if (_count < _items.Length)
            {
                _items[_count++] = item;
            }
        }
    }
}
