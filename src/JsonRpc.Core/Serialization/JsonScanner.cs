using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text.Json;
using System.Text.Unicode;

namespace JsonRpc.Serialization;

/// <summary>
/// The strict checks made on the one forward pass: every string and member name is valid UTF-8 with no lone
/// surrogate escapes, and no object has a member name twice (RFC 7493). Allocation-free for ordinary messages:
/// the tables are reused per thread and rent from the pool only for large inputs.
/// </summary>
/// <remarks>
/// <para>
/// UTF-8 is checked once over each whole value (<see cref="CheckUtf8"/>), not string by string: outside strings the
/// reader accepts only ASCII, so a value's bytes are valid UTF-8 exactly when all its strings and names are. One
/// vectorized pass over the value costs a fraction of one call per string.
/// </para>
/// <para>
/// An object's member names are compared directly while it has at most <see cref="LinearNames"/> of them (every
/// JSON-RPC envelope and most params); a bigger object moves its names to a hash table. Names are hashed with
/// <see cref="HashCode"/>, which is seeded per process, so a peer cannot craft colliding names to make the check
/// quadratic.
/// </para>
/// <para>
/// While compared directly, an object also keeps a 64-bit mask with one bit per name (<see cref="Fingerprint"/>: the
/// name's length and its first and last bytes). A name whose bit is clear cannot equal an earlier name, so almost
/// every name is recorded without a comparison or a loop whose trip count varies (and so mispredicts). A set bit only
/// means "compare": a crafted collision costs what the direct comparison always cost, within the same limit of
/// <see cref="LinearNames"/>.
/// </para>
/// </remarks>
internal ref struct JsonScanner
{
    internal const int InitialSlots = 16;
    internal const int InitialObjects = 32;
    internal const int InitialNames = 64;

    /// <summary>The most member names an object may have before its duplicate check moves to the hash table.</summary>
    internal const int LinearNames = 8;

    private readonly ReadOnlySpan<byte> _buffer;
    private readonly Tables _tables;
    private Span<Slot> _slots;
    private Slot[]? _rentedSlots;
    private bool _slotsCleared;
    private int _count;
    private Span<Frame> _objects;
    private Frame[]? _rentedObjects;
    private int _top;
    private int _nextSerial;
    private Span<Name> _names;
    private Name[]? _rentedNames;
    private int _nameCount;
    private byte[]? _arena;
    private int _arenaUsed;

    /// <summary>The first reason the text is not acceptable JSON (a Parse error), or null.</summary>
    public string? ParseViolation;

    /// <summary>The first duplicate member name found inside a value (params, result, data, unknown members).</summary>
    public string? DuplicateInValue;

    /// <param name="buffer">The whole input the reader reads, so that earlier names can be compared.</param>
    public JsonScanner(ReadOnlySpan<byte> buffer)
    {
        // Tables are per thread and reused: heap memory (not stackalloc) so that the scanner may be passed beside a
        // Utf8JsonReader of any scope, and allocation-free in the steady state.
        var tables = t_tables ?? new Tables();
        t_tables = null; // a nested scan on this thread gets tables of its own
        _tables = tables;
        _buffer = buffer;
        _slots = tables.Slots; // cleared only when an object first needs it
        _objects = tables.Objects;
        _names = tables.Names;
        _rentedSlots = null;
        _rentedObjects = null;
        _rentedNames = null;
        _arena = null;
        ParseViolation = null;
        DuplicateInValue = null;
    }

    [ThreadStatic]
    private static Tables? t_tables;

    private sealed class Tables
    {
        public readonly Slot[] Slots = new Slot[InitialSlots];
        public readonly Frame[] Objects = new Frame[InitialObjects];
        public readonly Name[] Names = new Name[InitialNames];
    }

    /// <summary>Where a member name's bytes are: in the input, or unescaped in the arena when the offset is negative.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal readonly record struct Name(int Offset, int Length);

    /// <summary>An open object: where its names start in the name list, and its serial once it uses the hash table.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct Frame
    {
        public int NamesStart;
        public int Serial; // 0 while the names are compared directly
        public ulong Seen; // while compared directly: the fingerprints of the names so far, a bit each
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct Slot
    {
        public int Serial; // 0: empty
        public int Hash;
        public Name Name;
    }

    public void Dispose()
    {
        t_tables = _tables;
        if (_rentedSlots is not null)
        {
            ArrayPool<Slot>.Shared.Return(_rentedSlots);
            _rentedSlots = null;
        }

        if (_rentedObjects is not null)
        {
            ArrayPool<Frame>.Shared.Return(_rentedObjects);
            _rentedObjects = null;
        }

        if (_rentedNames is not null)
        {
            ArrayPool<Name>.Shared.Return(_rentedNames);
            _rentedNames = null;
        }

        if (_arena is not null)
        {
            ArrayPool<byte>.Shared.Return(_arena);
            _arena = null;
        }
    }

    /// <summary>Call on every StartObject token.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void EnterObject()
    {
        if (_top == _objects.Length)
        {
            GrowObjects();
        }

        _objects[_top++] = new Frame { NamesStart = _nameCount };
    }

    /// <summary>Call on every EndObject token.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void ExitObject() => _nameCount = _objects[--_top].NamesStart;

    /// <summary>
    /// Checks that a whole value (the bytes from <paramref name="start"/> to <paramref name="end"/>) is valid UTF-8.
    /// Call once per value read, before looking at <see cref="ParseViolation"/>.
    /// </summary>
    public void CheckUtf8(long start, long end)
    {
        if (!Utf8.IsValid(_buffer[checked((int)start)..checked((int)end)]))
        {
            ParseViolation ??= "A string or member name is not valid UTF-8.";
        }
    }

    /// <summary>Checks a String token's escapes; its UTF-8 is checked with the whole value by <see cref="CheckUtf8"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void CheckString(scoped ref Utf8JsonReader reader)
    {
        if (reader.ValueIsEscaped)
        {
            CheckEscapedString(reader.ValueSpan);
        }
    }

    /// <summary>Checks a PropertyName token; returns false when the current object already has a member of that name.</summary>
    /// <remarks>
    /// The common case (an unescaped name in an object of a few members) stays small enough to inline into the scan
    /// loops; escaped names and big objects take out-of-line paths, so the loops keep their registers.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool CheckName(scoped ref Utf8JsonReader reader)
    {
        if (reader.ValueIsEscaped)
        {
            return CheckEscapedName(ref reader);
        }

        // Each directly compared object keeps a 64-bit mask of its names' fingerprints. A name whose bit is not yet
        // set is new for certain, and is recorded with no comparison and no data-dependent loop; only a fingerprint
        // seen before (a duplicate, or two names sharing a bit) pays for comparing names.
        var name = reader.ValueSpan;
        var bit = 1UL << Fingerprint(name);
        ref var frame = ref _objects[_top - 1];
        var count = _nameCount;
        if ((frame.Seen & bit) == 0 && count - frame.NamesStart < LinearNames && count < _names.Length)
        {
            frame.Seen |= bit;
            _names[count] = new Name((int)reader.TokenStartIndex + 1, name.Length);
            _nameCount = count + 1;
            return true;
        }

        return CheckNameSlow(new Name((int)reader.TokenStartIndex + 1, name.Length), name, bit);
    }

    /// <summary>Which of 64 bits stands for a name in its object's mask: from its length and its first and last bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int Fingerprint(ReadOnlySpan<byte> name)
        => name.IsEmpty ? 0 : (int)(((uint)name.Length * 0x9E3779B1u + name[0] * 0x85EBCA6Bu + name[^1] * 0xC2B2AE35u) >> 26);

    /// <summary>
    /// A name whose fingerprint the object has seen, or an object that has outgrown direct comparison: compares the
    /// name with the object's earlier names, then records it.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool CheckNameSlow(Name entry, ReadOnlySpan<byte> name, ulong bit)
    {
        var top = _top - 1;
        if (_objects[top].Serial == 0)
        {
            if ((_objects[top].Seen & bit) != 0)
            {
                for (var i = _objects[top].NamesStart; i < _nameCount; i++)
                {
                    var other = _names[i];
                    if (other.Length == name.Length && NameOf(other).SequenceEqual(name))
                    {
                        return false;
                    }
                }
            }

            _objects[top].Seen |= bit;
        }

        return AddName(top, entry, name);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void CheckEscapedString(ReadOnlySpan<byte> raw)
    {
        if (!IsValidEscapedString(raw))
        {
            ParseViolation ??= "A string is not valid UTF-8 or holds an unpaired surrogate escape.";
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool CheckEscapedName(scoped ref Utf8JsonReader reader)
    {
        var raw = reader.ValueSpan;
        if (!IsValidEscapedString(raw))
        {
            ParseViolation ??= "A member name is not valid UTF-8 or holds an unpaired surrogate escape.";
            return true; // cannot be compared reliably; the Parse error wins anyway
        }

        EnsureArena(raw.Length);
        var written = reader.CopyString(_arena.AsSpan(_arenaUsed));
        var entry = new Name(~_arenaUsed, written);
        var name = _arena.AsSpan(_arenaUsed, written);
        _arenaUsed += written;
        return CheckNameSlow(entry, name, 1UL << Fingerprint(name));
    }

    /// <summary>
    /// Records a name that no earlier name of the object equals (when the object still compares directly), growing
    /// the list or moving the object to the hash table as needed; or checks and adds it in the hash table.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool AddName(int top, Name entry, ReadOnlySpan<byte> name)
    {
        if (_objects[top].Serial == 0)
        {
            if (_nameCount - _objects[top].NamesStart < LinearNames)
            {
                if (_nameCount == _names.Length)
                {
                    GrowNames();
                }

                _names[_nameCount++] = entry;
                return true;
            }

            MoveToHashTable(top);
        }

        return AddToHashTable(_objects[top].Serial, entry, name);
    }

    /// <summary>Checks every token of the value the reader is on, leaving the reader on its last token.</summary>
    public void ScanValue(scoped ref Utf8JsonReader reader)
    {
        switch (reader.TokenType)
        {
            case JsonTokenType.String:
                CheckString(ref reader);
                return;
            case JsonTokenType.StartObject:
                EnterObject();
                break;
            case JsonTokenType.StartArray:
                break;
            default:
                return;
        }

        // Our own count of open containers: cheaper than asking the reader for its depth on every token.
        var open = 1;
        if (ScanTokens(ref reader, ref open, SmallValueTokens))
        {
            return;
        }

        ScanRestOfBigValue(ref reader, open);
    }

    /// <summary>
    /// Reads the rest of a bigger value with a local copy of the reader, written back at the end: the JIT addresses a
    /// local better than a reader behind a reference, which pays for the two copies many times over. Out of line, so
    /// that callers do not zero a reader-sized local on every call.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void ScanRestOfBigValue(scoped ref Utf8JsonReader reader, int open)
    {
        var local = reader;
        while (true)
        {
            if (!local.Read())
            {
                ParseViolation ??= "The JSON text ends inside a value.";
                break;
            }

            if (CheckToken(ref local, ref open))
            {
                break;
            }
        }

        reader = local;
    }

    /// <summary>How many tokens of a value are read before the rest is read with a local copy of the reader.</summary>
    private const int SmallValueTokens = 16;

    /// <summary>Reads and checks up to <paramref name="limit"/> tokens; true once the value's last token is read.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool ScanTokens(scoped ref Utf8JsonReader reader, ref int open, int limit)
    {
        while (limit-- > 0)
        {
            if (!reader.Read())
            {
                // Only a reader over incomplete input gets here; ours always read final blocks.
                ParseViolation ??= "The JSON text ends inside a value.";
                return true;
            }

            if (CheckToken(ref reader, ref open))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Checks the token the reader is on; true when it closes the value being scanned.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool CheckToken(scoped ref Utf8JsonReader reader, ref int open)
    {
        switch (reader.TokenType)
        {
            case JsonTokenType.PropertyName:
                if (!CheckName(ref reader))
                {
                    DuplicateInValue ??= "A member name appears twice in one object.";
                }

                return false;
            case JsonTokenType.String:
                CheckString(ref reader);
                return false;
            case JsonTokenType.StartObject:
                EnterObject();
                open++;
                return false;
            case JsonTokenType.StartArray:
                open++;
                return false;
            case JsonTokenType.EndObject:
                ExitObject();
                return --open == 0;
            case JsonTokenType.EndArray:
                return --open == 0;
            default:
                return false;
        }
    }

    /// <summary>
    /// Checks every element of the array the reader is on, leaving the reader on its EndArray; returns how many
    /// elements it has.
    /// </summary>
    public int ScanArrayElements(scoped ref Utf8JsonReader reader)
    {
        var elements = 0;
        while (reader.Read())
        {
            if (reader.TokenType == JsonTokenType.EndArray)
            {
                return elements;
            }

            elements++;
            ScanValue(ref reader);
        }

        ParseViolation ??= "The JSON text ends inside a value.";
        return elements;
    }

    private readonly ReadOnlySpan<byte> NameOf(Name name)
        => name.Offset >= 0 ? _buffer.Slice(name.Offset, name.Length) : _arena.AsSpan(~name.Offset, name.Length);

    /// <summary>The object at <paramref name="top"/> has too many names to compare directly: hash them from now on.</summary>
    private void MoveToHashTable(int top)
    {
        if (!_slotsCleared)
        {
            _slots.Clear();
            _slotsCleared = true;
        }

        var start = _objects[top].NamesStart;
        _objects[top].Serial = ++_nextSerial;
        _objects[top].Seen = ~0UL; // every later name takes the slow path, to the hash table
        for (var i = start; i < _nameCount; i++)
        {
            AddToHashTable(_nextSerial, _names[i], NameOf(_names[i]));
        }

        _nameCount = start;
    }

    private bool AddToHashTable(int serial, Name entry, ReadOnlySpan<byte> name)
    {
        var hasher = new HashCode();
        hasher.Add(serial);
        hasher.AddBytes(name);
        var hash = hasher.ToHashCode();

        var mask = _slots.Length - 1;
        var index = hash & mask;
        while (true)
        {
            ref var slot = ref _slots[index];
            if (slot.Serial == 0)
            {
                break;
            }

            if (slot.Serial == serial && slot.Hash == hash && NameOf(slot.Name).SequenceEqual(name))
            {
                return false;
            }

            index = (index + 1) & mask;
        }

        _slots[index] = new Slot { Serial = serial, Hash = hash, Name = entry };
        if (++_count * 2 > _slots.Length)
        {
            GrowSlots();
        }

        return true;
    }

    private void EnsureArena(int needed)
    {
        if (_arena is null)
        {
            _arena = ArrayPool<byte>.Shared.Rent(Math.Max(256, needed));
        }
        else if (_arena.Length - _arenaUsed < needed)
        {
            var bigger = ArrayPool<byte>.Shared.Rent(Math.Max(_arena.Length * 2, _arenaUsed + needed));
            _arena.AsSpan(0, _arenaUsed).CopyTo(bigger);
            ArrayPool<byte>.Shared.Return(_arena);
            _arena = bigger;
        }
    }

    private void GrowSlots()
    {
        var old = _slots;
        var rented = ArrayPool<Slot>.Shared.Rent(old.Length * 2);
        var size = (int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)rented.Length);
        if (size > rented.Length)
        {
            size >>= 1;
        }

        var slots = rented.AsSpan(0, size);
        slots.Clear();
        var mask = size - 1;
        foreach (ref readonly var slot in old)
        {
            if (slot.Serial != 0)
            {
                var index = slot.Hash & mask;
                while (slots[index].Serial != 0)
                {
                    index = (index + 1) & mask;
                }

                slots[index] = slot;
            }
        }

        if (_rentedSlots is not null)
        {
            ArrayPool<Slot>.Shared.Return(_rentedSlots);
        }

        _rentedSlots = rented;
        _slots = slots;
    }

    private void GrowObjects()
    {
        var rented = ArrayPool<Frame>.Shared.Rent(Math.Max(16, _objects.Length * 2));
        _objects.CopyTo(rented);
        if (_rentedObjects is not null)
        {
            ArrayPool<Frame>.Shared.Return(_rentedObjects);
        }

        _rentedObjects = rented;
        _objects = rented;
    }

    private void GrowNames()
    {
        var rented = ArrayPool<Name>.Shared.Rent(_names.Length * 2);
        _names.CopyTo(rented);
        if (_rentedNames is not null)
        {
            ArrayPool<Name>.Shared.Return(_rentedNames);
        }

        _rentedNames = rented;
        _names = rented;
    }

    /// <summary>True when an escaped string's raw bytes are valid UTF-8 and every \u escape pairs its surrogates.</summary>
    internal static bool IsValidEscapedString(ReadOnlySpan<byte> raw) => Utf8.IsValid(raw) && HasPairedSurrogateEscapes(raw);

    private static bool HasPairedSurrogateEscapes(ReadOnlySpan<byte> raw)
    {
        var i = raw.IndexOf((byte)'\\');
        while (i >= 0 && i < raw.Length - 1)
        {
            if (raw[i + 1] != (byte)'u')
            {
                i += 2;
            }
            else
            {
                var unit = ParseHex4(raw.Slice(i + 2, 4));
                i += 6;
                if (unit is >= 0xDC00 and <= 0xDFFF)
                {
                    return false; // a low surrogate with no high one before it
                }

                if (unit is >= 0xD800 and <= 0xDBFF)
                {
                    if (i + 6 > raw.Length || raw[i] != (byte)'\\' || raw[i + 1] != (byte)'u')
                    {
                        return false;
                    }

                    var low = ParseHex4(raw.Slice(i + 2, 4));
                    if (low is < 0xDC00 or > 0xDFFF)
                    {
                        return false;
                    }

                    i += 6;
                }
            }

            if (i < raw.Length)
            {
                var next = raw[i..].IndexOf((byte)'\\');
                i = next < 0 ? -1 : i + next;
            }
        }

        return true;
    }

    private static int ParseHex4(ReadOnlySpan<byte> hex)
    {
        var value = 0;
        foreach (var b in hex)
        {
            value = (value << 4) | b switch
            {
                >= (byte)'0' and <= (byte)'9' => b - '0',
                >= (byte)'a' and <= (byte)'f' => b - 'a' + 10,
                _ => b - 'A' + 10, // the reader has already checked the escape is hex
            };
        }

        return value;
    }
}
