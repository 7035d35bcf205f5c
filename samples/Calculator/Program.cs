using JsonRpc.Protocol;

// Placeholder until the client and router land: answers the spec's "subtract" example locally.
var request = (JsonRpcRequest)JsonRpcMessage.Parse("""{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}""");
var operands = request.Params.Deserialize(CalculatorJson.Default.Int32Array)!;
var response = new JsonRpcResponse(request.Id, RawJson.From(operands[0] - operands[1], CalculatorJson.Default.Int32));
Console.WriteLine(response);

[System.Text.Json.Serialization.JsonSerializable(typeof(int[]))]
internal sealed partial class CalculatorJson : System.Text.Json.Serialization.JsonSerializerContext;
