using System.Text.Json;

namespace JsonRpc.Server.RouterProtocol;

/// <summary>The OpenRPC Method Objects of the router's own methods (<see cref="RouterMethods"/>), for <c>rpc.discover</c>.</summary>
internal static class BuiltInDescriptions
{
    private const string Json = """
        [
          {"name":"register_client","summary":"Names this connection; its methods and events are registered under the name.","paramStructure":"either",
           "params":[{"name":"name","required":true,"schema":{"type":"string","minLength":1,"maxLength":256}},
                     {"name":"token","schema":{"type":"string"},"description":"The access token, where the router asks for one."}],
           "result":{"name":"registered","schema":{"const":true}}},
          {"name":"authenticate","summary":"Authenticates the connection with a static token or a JWT.","paramStructure":"either",
           "params":[{"name":"token","required":true,"schema":{"type":"string"}}],
           "result":{"name":"identity","schema":{"type":"object","properties":{"identity":{"type":"string"},"roles":{"type":"array","items":{"type":"string"}}}}}},
          {"name":"register_method","summary":"This client provides the method.","paramStructure":"either",
           "params":[{"name":"method","required":true,"schema":{"type":"string","minLength":1}},
                     {"name":"exclusive","schema":{"type":"boolean"},"description":"No other identity may provide it meanwhile."},
                     {"name":"description","schema":{"type":"object"},"description":"The method's OpenRPC Method Object (summary, params, result), shown by rpc.discover."}],
           "result":{"name":"registered","schema":{"const":true}}},
          {"name":"unregister_method","summary":"This client stops providing the method.","paramStructure":"either",
           "params":[{"name":"method","required":true,"schema":{"type":"string"}}],
           "result":{"name":"removed","schema":{"type":"boolean"}}},
          {"name":"subscribe","summary":"Notifications named after the event reach this client.","paramStructure":"either",
           "params":[{"name":"event","required":true,"schema":{"type":"string","minLength":1}}],
           "result":{"name":"subscribed","schema":{"const":true}}},
          {"name":"unsubscribe","summary":"Stops the event's notifications to this client.","paramStructure":"either",
           "params":[{"name":"event","required":true,"schema":{"type":"string"}}],
           "result":{"name":"removed","schema":{"type":"boolean"}}},
          {"name":"list_methods","summary":"Every routed method with its providers (and their nodes), and the host's methods.","params":[],
           "result":{"name":"methods","schema":{"type":"array","items":{"type":"object","properties":{"method":{"type":"string"},"providers":{"type":"array","items":{"type":"string"}}}}}}},
          {"name":"list_clients","summary":"Every registered client with its address and how many methods and events it holds.","params":[],
           "result":{"name":"clients","schema":{"type":"array","items":{"type":"object"}}}},
          {"name":"keepAlive","summary":"Resets the idle timer.","params":[],"result":{"name":"alive","schema":{"const":true}}},
          {"name":"get_server_stats","summary":"The router's counters (and the cluster's, in a cluster).","params":[],
           "result":{"name":"stats","schema":{"type":"object"}}},
          {"name":"rpc.discover","summary":"This document: every method reachable through the router.","params":[],
           "result":{"name":"OpenRPC Schema","schema":{"$ref":"https://raw.githubusercontent.com/open-rpc/meta-schema/master/schema.json"}}},
          {"name":"$/cancelRequest","summary":"A notification: cancels the sender's own pending call of that id.","paramStructure":"by-name",
           "params":[{"name":"id","required":true,"schema":{"type":["string","number"]}}]}
        ]
        """;

    private static readonly JsonDocument Document = JsonDocument.Parse(Json);

    /// <summary>Each method's name and a writer of its Method Object.</summary>
    public static IEnumerable<(string Name, Action<Utf8JsonWriter> Write)> Methods
    {
        get
        {
            foreach (var method in Document.RootElement.EnumerateArray())
            {
                yield return (method.GetProperty("name"u8).GetString()!, method.WriteTo);
            }
        }
    }
}
