using System.Diagnostics.CodeAnalysis;

// RS0026/RS0027 guard against overload sets that a later overload would make ambiguous. These sets follow
// System.Text.Json's own pattern (JsonSerializer.Deserialize, SerializeToUtf8Bytes): the overloads differ in the type of
// a required parameter, so no call binds to more than one and a new overload cannot change which one a call binds to.
// Each is listed by name, so a new overload set with optional parameters is still an error.

[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Overloads differ in the input's type.",
    Target = "~M:JsonRpc.Protocol.JsonRpcMessage.Parse(System.ReadOnlyMemory{System.Byte},JsonRpc.Serialization.JsonRpcReaderOptions)~JsonRpc.Protocol.JsonRpcMessage")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Overloads differ in the input's type.",
    Target = "~M:JsonRpc.Protocol.JsonRpcMessage.Parse(System.ReadOnlySpan{System.Byte},JsonRpc.Serialization.JsonRpcReaderOptions)~JsonRpc.Protocol.JsonRpcMessage")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Overloads differ in the input's type.",
    Target = "~M:JsonRpc.Protocol.JsonRpcMessage.Parse(System.Buffers.ReadOnlySequence{System.Byte}@,JsonRpc.Serialization.JsonRpcReaderOptions)~JsonRpc.Protocol.JsonRpcMessage")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Overloads differ in the input's type.",
    Target = "~M:JsonRpc.Protocol.JsonRpcMessage.Parse(System.String,JsonRpc.Serialization.JsonRpcReaderOptions)~JsonRpc.Protocol.JsonRpcMessage")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "The overload with the message info has a required parameter the other lacks.",
    Target = "~M:JsonRpc.Dispatch.JsonRpcDispatcher.DispatchAsync(System.ReadOnlyMemory{System.Byte},System.Buffers.IBufferWriter{System.Byte},System.Threading.CancellationToken)~System.Threading.Tasks.ValueTask{System.Boolean}")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "The overload with the message info has a required parameter the other lacks.",
    Target = "~M:JsonRpc.Dispatch.JsonRpcDispatcher.DispatchAsync(System.ReadOnlyMemory{System.Byte},JsonRpc.Serialization.JsonRpcMessageInfo@,System.Buffers.IBufferWriter{System.Byte},System.Threading.CancellationToken)~System.Threading.Tasks.ValueTask{System.Boolean}")]
[assembly: SuppressMessage("ApiDesign", "RS0027", Scope = "member", Justification = "As JsonSerializer.SerializeToUtf8Bytes: JsonTypeInfo or options.",
    Target = "~M:JsonRpc.Protocol.RawJson.From``1(``0,System.Text.Json.JsonSerializerOptions)~JsonRpc.Protocol.RawJson")]
[assembly: SuppressMessage("ApiDesign", "RS0027", Scope = "member", Justification = "As JsonSerializer.Deserialize: JsonTypeInfo or options.",
    Target = "~M:JsonRpc.Protocol.RawJson.Deserialize``1(System.Text.Json.JsonSerializerOptions)~``0")]
