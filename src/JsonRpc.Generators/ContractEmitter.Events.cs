namespace JsonRpc.Generators;

/// <summary>
/// Events, on StreamJsonRpc's wire: a served implementation's event is sent as the notification named after it with
/// params <c>[args]</c>; a proxy's event is raised by those notifications while it has handlers.
/// </summary>
internal sealed partial class ContractEmitter
{
    private const string Sender = "global::JsonRpc.Contracts.JsonRpcEventSender";

    private void EmitProxyEventFields()
    {
        if (_contract.Events.Length == 0)
        {
            return;
        }

        Line("private readonly object _eventGate = new object();");
        foreach (var (e, index) in Events)
        {
            Line($"private {e.HandlerType}? _event{index};");
            Line($"private global::System.IDisposable? _listening{index};");
            if (e.ArgsType is not null)
            {
                Line($"private readonly {Meta}.JsonTypeInfo<{e.ArgsType}> _eventType{index};");
            }
        }
    }

    private void EmitProxyEvent(EventModel e, int index)
    {
        // The first handler starts listening to the client (and, at a router, subscribes); the last one removed stops.
        Line($"event {e.Type} {e.DeclaringType}.{Id(e.Name)}");
        Open();
        Line("add");
        Open();
        Line("lock (_eventGate)");
        Open();
        Line($"if (_event{index} is null && value is not null) _listening{index} = global::JsonRpc.Client.JsonRpcClientContractSupport.Listen(_client, {Literal(e.WireName)}, OnEvent{index});");
        Line($"_event{index} += value;");
        Close();
        Close();
        Line("remove");
        Open();
        Line("global::System.IDisposable? __stop = null;");
        Line("lock (_eventGate)");
        Open();
        Line($"_event{index} -= value;");
        Line($"if (_event{index} is null) {{ __stop = _listening{index}; _listening{index} = null; }}");
        Close();
        Line("__stop?.Dispose();");
        Close();
        Close();
        Line();
        Line($"private void OnEvent{index}(global::JsonRpc.Protocol.RawJson __params)");
        Open();
        Line($"if (_event{index} is not {{ }} __handler) return;");
        Line(e.ArgsType is null
            ? "__handler(this, global::System.EventArgs.Empty);"
            : $"__handler(this, {Support}.ReadEventArgs(__params, _eventType{index}, {Literal(e.WireName)}));");
        Close();
    }

    private void EmitTargetEvents()
    {
        Line($"private static global::System.Action Events({Sender} sender, {_contract.InterfaceType} target, {Json}.JsonSerializerOptions options)");
        Open();
        foreach (var (e, index) in Events)
        {
            var wireName = Literal(e.WireName);
            if (e.ArgsType is null)
            {
                Line($"{e.HandlerType} __on{index} = (__sender, __args) => {Support}.SendEvent(sender, {wireName});");
            }
            else
            {
                Line($"var __type{index} = {Support}.GetTypeInfo<{e.ArgsType}>(options);");
                Line($"{e.HandlerType} __on{index} = (__sender, __args) => {Support}.SendEvent<{e.ArgsType}>(sender, {wireName}, __args, __type{index});");
            }
        }

        foreach (var (e, index) in Events)
        {
            Line($"(({e.DeclaringType})target).{Id(e.Name)} += __on{index};");
        }

        Line("return () =>");
        Open();
        foreach (var (e, index) in Events)
        {
            Line($"(({e.DeclaringType})target).{Id(e.Name)} -= __on{index};");
        }

        _indent--;
        Line("};");
        Close();
    }

    /// <summary>A per-call implementation lives for one call: nothing could subscribe to its events, so none are forwarded.</summary>
    private void EmitPerCallEvents()
    {
        foreach (var e in _contract.Events)
        {
            Line();
            Line($"event {e.Type} {e.DeclaringType}.{Id(e.Name)} {{ add {{ }} remove {{ }} }}");
        }
    }
}
