using System.Diagnostics.CodeAnalysis;

// RS0026 guards against overload sets that a later overload would make ambiguous. The client's call, notify, publish and
// subscribe overloads all end in the optional CancellationToken the .NET design guidelines ask for, and differ in the
// types of their required parameters (raw JSON, an object, JsonTypeInfo-typed values, a sync or async handler), so no call
// binds to more than one of them. Each is listed by name, so a new overload with optional parameters is still an error.

[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.CallAsync(System.String,JsonRpc.Protocol.RawJson,System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.CallAsync(System.String,JsonRpc.Protocol.RawJson,System.Buffers.IBufferWriter{System.Byte},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.CallAsync``1(System.String,JsonRpc.Protocol.RawJson,System.Text.Json.Serialization.Metadata.JsonTypeInfo{``0},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.CallAsync``2(System.String,``0,System.Text.Json.Serialization.Metadata.JsonTypeInfo{``0},System.Text.Json.Serialization.Metadata.JsonTypeInfo{``1},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.CallAsync``3(System.String,``0,``1,System.Text.Json.Serialization.Metadata.JsonTypeInfo{``0},System.Text.Json.Serialization.Metadata.JsonTypeInfo{``1},System.Text.Json.Serialization.Metadata.JsonTypeInfo{``2},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.CallAsync``4(System.String,``0,``1,``2,System.Text.Json.Serialization.Metadata.JsonTypeInfo{``0},System.Text.Json.Serialization.Metadata.JsonTypeInfo{``1},System.Text.Json.Serialization.Metadata.JsonTypeInfo{``2},System.Text.Json.Serialization.Metadata.JsonTypeInfo{``3},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.CallAsync``1(System.String,System.Object,System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.Call(System.String,JsonRpc.Protocol.RawJson,System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.Call(System.String,JsonRpc.Protocol.RawJson,System.Buffers.IBufferWriter{System.Byte},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.Call``1(System.String,JsonRpc.Protocol.RawJson,System.Text.Json.Serialization.Metadata.JsonTypeInfo{``0},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.Call``2(System.String,``0,System.Text.Json.Serialization.Metadata.JsonTypeInfo{``0},System.Text.Json.Serialization.Metadata.JsonTypeInfo{``1},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.Call``1(System.String,System.Object,System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.NotifyAsync(System.String,JsonRpc.Protocol.RawJson,System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.NotifyAsync``1(System.String,``0,System.Text.Json.Serialization.Metadata.JsonTypeInfo{``0},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.NotifyAsync(System.String,System.Object,System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.SubscribeAsync(System.String,System.Func{JsonRpc.Protocol.RawJson,System.Threading.CancellationToken,System.Threading.Tasks.ValueTask},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.SubscribeAsync(System.String,System.Action{JsonRpc.Protocol.RawJson},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.SubscribeAsync``1(System.String,System.Text.Json.Serialization.Metadata.JsonTypeInfo{``0},System.Func{``0,System.Threading.CancellationToken,System.Threading.Tasks.ValueTask},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.SubscribeAsync``1(System.String,System.Text.Json.Serialization.Metadata.JsonTypeInfo{``0},System.Action{``0},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.SubscribeAsync``1(System.String,System.Action{``0},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.PublishAsync(System.String,JsonRpc.Protocol.RawJson,System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.PublishAsync``1(System.String,``0,System.Text.Json.Serialization.Metadata.JsonTypeInfo{``0},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.PublishAsync(System.String,System.Object,System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional options and CancellationToken last; required parameters differ (host and port, or a URI).",
    Target = "~M:JsonRpc.Client.JsonRpcClient.ConnectAsync(System.String,System.Int32,JsonRpc.Client.JsonRpcClientOptions,System.Threading.CancellationToken)~System.Threading.Tasks.Task{JsonRpc.Client.JsonRpcClient}")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional options and CancellationToken last; required parameters differ (host and port, or a URI).",
    Target = "~M:JsonRpc.Client.JsonRpcClient.ConnectAsync(System.Uri,JsonRpc.Client.JsonRpcClientOptions,System.Threading.CancellationToken)~System.Threading.Tasks.Task{JsonRpc.Client.JsonRpcClient}")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.StreamAsync``1(System.String,JsonRpc.Protocol.RawJson,System.Text.Json.Serialization.Metadata.JsonTypeInfo{``0},System.Threading.CancellationToken)")]
[assembly: SuppressMessage("ApiDesign", "RS0026", Scope = "member", Justification = "Optional CancellationToken last; required parameters differ.",
    Target = "~M:JsonRpc.Client.JsonRpcClient.StreamAsync``1(System.String,System.Object,System.Threading.CancellationToken)")]
