using System.Text.Json;

namespace JsonRpc.Client.Internal;

/// <summary>Where a message's params come from; implemented by structs so the generic writers never box them.</summary>
internal interface IParamsSource
{
    /// <summary>True when the message gets no <c>params</c> member.</summary>
    bool IsAbsent { get; }

    /// <summary>Writes the params value (any JSON value; a scalar is wrapped into an array afterwards).</summary>
    void WriteValue(Utf8JsonWriter writer);
}
