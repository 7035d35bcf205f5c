using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text.Json;
using System.Text.Unicode;
using JsonRpc.Protocol;

namespace JsonRpc.Serialization;

/// <summary>
/// The strict checks made on the one forward pass: every string and member name is valid UTF-8 with no lone
/// surrogate escapes, and no object has a member name twice (RFC 7493). Allocation-free for ordinary messages:
/// the duplicate-name table is reused per thread and rents from the pool only for large objects.
/// </summary>
/// <remarks>
/// Names are hashed with <see cref="HashCode"/>, which is seeded per process, so a peer cannot craft colliding
/// names to make the check quadratic.
/// </remarks>
internal ref struct JsonScanner
{
    internal const int InitialSlots = 16;
    internal const int InitialObjects = 32;

    private readonly ReadOnlySpan<byte> _buffer;
    private Span<Slot> _slots;
    private Slot[]? _rentedSlots;
    private int _count;
    private Span<int> _objects;
    private int[]? _rentedObjects;
    private int _top;
    private int _nextSerial;
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
        _slots = tables.Slots;
        _slots.Clear();
        _objects = tables.Objects;
        _rentedSlots = null;
        _rentedObjects = null;
        _arena = null;
        ParseViolation = null;
        DuplicateInValue = null;
    }

    [ThreadStatic]
    private static Tables? t_tables;

    private readonly Tables _tables;

    private sealed class Tables
    {
        public readonly Slot[] Slots = new Slot[InitialSlots];
        public readonly int[] Objects = new int[InitialObjects];
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct Slot
    {
        public int Serial; // 0: empty
        public int Hash;
        public int Offset;
        public int Length; // < 0: the unescaped name is in the arena, of length ~Length
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
            ArrayPool<int>.Shared.Return(_rentedObjects);
            _rentedObjects = null;
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

        _objects[_top++] = ++_nextSerial;
    }

    /// <summary>Call on every EndObject token.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void ExitObject() => _top--;

    /// <summary>Checks a String token.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void CheckString(scoped ref Utf8JsonReader reader)
    {
        if (!IsValidString(reader.ValueSpan, reader.ValueIsEscaped))
        {
            ParseViolation ??= "A string is not valid UTF-8 or holds an unpaired surrogate escape.";
        }
    }

    /// <summary>Checks a PropertyName token; returns false when the current object already has a member of that name.</summary>
    public bool CheckName(scoped ref Utf8JsonReader reader)
    {
        var raw = reader.ValueSpan;
        if (!IsValidString(raw, reader.ValueIsEscaped))
        {
            ParseViolation ??= "A member name is not valid UTF-8 or holds an unpaired surrogate escape.";
            return true; // cannot be compared reliably; the Parse error wins anyway
        }

        var serial = _objects[_top - 1];
        int offset, length;
        ReadOnlySpan<byte> name;
        if (reader.ValueIsEscaped)
        {
            EnsureArena(raw.Length);
            var written = reader.CopyString(_arena.AsSpan(_arenaUsed));
            offset = _arenaUsed;
            length = ~written;
            name = _arena.AsSpan(_arenaUsed, written);
            _arenaUsed += written;
        }
        else
        {
            offset = checked((int)reader.TokenStartIndex) + 1;
            length = raw.Length;
            name = raw;
        }

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

            if (slot.Serial == serial && slot.Hash == hash && NameOf(slot).SequenceEqual(name))
            {
                return false;
            }

            index = (index + 1) & mask;
        }

        _slots[index] = new Slot { Serial = serial, Hash = hash, Offset = offset, Length = length };
        if (++_count * 2 > _slots.Length)
        {
            GrowSlots();
        }

        return true;
    }

    /// <summary>
    /// Checks every token of the value the reader is on, leaving the reader on its last token.
    /// Returns the number of elements when the value is an array.
    /// </summary>
    public int ScanValue(scoped ref Utf8JsonReader reader)
    {
        switch (reader.TokenType)
        {
            case JsonTokenType.String:
                CheckString(ref reader);
                return 0;
            case JsonTokenType.StartObject:
            case JsonTokenType.StartArray:
                break;
            default:
                return 0;
        }

        var depth = reader.CurrentDepth;
        var isArray = reader.TokenType == JsonTokenType.StartArray;
        var elements = 0;
        if (!isArray)
        {
            EnterObject();
        }

        while (reader.Read())
        {
            var token = reader.TokenType;
            if (isArray && reader.CurrentDepth == depth + 1 && token is not (JsonTokenType.EndArray or JsonTokenType.EndObject))
            {
                elements++;
            }

            switch (token)
            {
                case JsonTokenType.PropertyName:
                    if (!CheckName(ref reader))
                    {
                        DuplicateInValue ??= "A member name appears twice in one object.";
                    }

                    break;
                case JsonTokenType.String:
                    CheckString(ref reader);
                    break;
                case JsonTokenType.StartObject:
                    EnterObject();
                    break;
                case JsonTokenType.EndObject:
                    ExitObject();
                    if (reader.CurrentDepth == depth)
                    {
                        return elements;
                    }

                    break;
                case JsonTokenType.EndArray:
                    if (reader.CurrentDepth == depth)
                    {
                        return elements;
                    }

                    break;
            }
        }

        // Only a reader over incomplete input gets here; ours always read final blocks.
        ParseViolation ??= "The JSON text ends inside a value.";
        return elements;
    }

    private readonly ReadOnlySpan<byte> NameOf(in Slot slot)
        => slot.Length >= 0 ? _buffer.Slice(slot.Offset, slot.Length) : _arena.AsSpan(slot.Offset, ~slot.Length);

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
        var rented = ArrayPool<int>.Shared.Rent(Math.Max(16, _objects.Length * 2));
        _objects.CopyTo(rented);
        if (_rentedObjects is not null)
        {
            ArrayPool<int>.Shared.Return(_rentedObjects);
        }

        _rentedObjects = rented;
        _objects = rented;
    }

    /// <summary>True when the raw (still escaped) string bytes are valid UTF-8 and every \u escape pairs its surrogates.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool IsValidString(ReadOnlySpan<byte> raw, bool escaped)
        => Utf8.IsValid(raw) && (!escaped || HasPairedSurrogateEscapes(raw));

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
