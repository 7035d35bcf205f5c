using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Schema;
using System.Text.Json.Serialization.Metadata;

namespace JsonRpc.Dispatch;

/// <summary>
/// What a registered method takes and returns, as its binder and result writer know it: enough to write its OpenRPC
/// Method Object. Schemas come from <see cref="JsonSchemaExporter"/> over the method's own <see cref="JsonTypeInfo"/>,
/// so a source-generated context describes itself without reflection.
/// </summary>
internal sealed class MethodShape
{
    private static readonly JsonSchemaExporterOptions ExporterOptions = new() { TreatNullObliviousAsNonNullable = true };

    private readonly (string Name, JsonTypeInfo Type)[] _params;
    private readonly JsonTypeInfo? _whole;
    private readonly JsonTypeInfo? _result;
    private readonly ResultKind _resultKind;

    private MethodShape((string, JsonTypeInfo)[] parameters, JsonTypeInfo? whole, JsonTypeInfo? result, ResultKind resultKind)
    {
        _params = parameters;
        _whole = whole;
        _result = result;
        _resultKind = resultKind;
    }

    /// <summary>Params by position or by name, each of its type.</summary>
    public static MethodShape Named((string, JsonTypeInfo)[] parameters, JsonTypeInfo result) => new(parameters, null, result, ResultKind.Typed);

    /// <summary>The whole params value binds to one type.</summary>
    public static MethodShape Whole(JsonTypeInfo parameters, JsonTypeInfo? result)
        => new([], parameters, result, result is null ? ResultKind.None : ResultKind.Typed);

    /// <summary>Params and result are raw JSON: anything.</summary>
    public static MethodShape Raw { get; } = new([], null, null, ResultKind.Any);

    /// <summary>A delegate's parameters and awaited result, described with reflection-based metadata.</summary>
    [RequiresUnreferencedCode("Reflection-based metadata.")]
    [RequiresDynamicCode("Reflection-based metadata.")]
    public static MethodShape FromDelegate(MethodInfo method, JsonSerializerOptions options)
    {
        var parameters = new List<(string, JsonTypeInfo)>();
        foreach (var parameter in method.GetParameters())
        {
            if (parameter.ParameterType != typeof(CancellationToken))
            {
                parameters.Add((parameter.Name!, options.GetTypeInfo(parameter.ParameterType)));
            }
        }

        var returned = method.ReturnType;
        if (returned.IsGenericType && (returned.GetGenericTypeDefinition() == typeof(Task<>) || returned.GetGenericTypeDefinition() == typeof(ValueTask<>)))
        {
            returned = returned.GetGenericArguments()[0];
        }
        else if (returned == typeof(void) || returned == typeof(Task) || returned == typeof(ValueTask))
        {
            return new MethodShape([.. parameters], null, null, ResultKind.Null);
        }

        return new MethodShape([.. parameters], null, options.GetTypeInfo(returned), ResultKind.Typed);
    }

    /// <summary>Writes the OpenRPC Method Object of <paramref name="name"/>.</summary>
    public JsonObject Describe(string name, string? summary, string? description)
    {
        var method = new JsonObject { ["name"] = name };
        if (summary is not null)
        {
            method["summary"] = summary;
        }

        if (description is not null)
        {
            method["description"] = description;
        }

        var parameters = new JsonArray();
        if (_whole is not null)
        {
            var schema = Schema(_whole);
            if (schema is JsonObject { } shape && shape["properties"] is JsonObject properties)
            {
                // An object binds by name: its properties are the params.
                var required = shape["required"] as JsonArray;
                foreach (var (property, propertySchema) in properties)
                {
                    parameters.Add((JsonNode)Descriptor(property, propertySchema?.DeepClone() ?? new JsonObject(), required?.Any(r => r?.GetValue<string>() == property) == true));
                }

                method["paramStructure"] = "by-name";
            }
            else
            {
                // An array or list binds by position, any number of items: OpenRPC has no variadic params, so one
                // descriptor stands for the whole params value, marked so (the dashboard sends its value as the params).
                var whole = Descriptor("params", schema, required: true);
                whole["x-whole-params"] = true;
                parameters.Add((JsonNode)whole);
                method["paramStructure"] = "by-position";
            }
        }
        else
        {
            foreach (var (param, type) in _params)
            {
                parameters.Add((JsonNode)Descriptor(param, Schema(type), required: true));
            }

            if (_params.Length > 0)
            {
                method["paramStructure"] = "either";
            }
        }

        method["params"] = parameters;
        switch (_resultKind)
        {
            case ResultKind.Typed:
                method["result"] = Descriptor("result", Schema(_result!), required: false);
                break;
            case ResultKind.Null:
                method["result"] = Descriptor("result", new JsonObject { ["type"] = "null" }, required: false);
                break;
            case ResultKind.Any:
                method["result"] = Descriptor("result", new JsonObject(), required: false);
                break;
        }

        return method;
    }

    private static JsonNode Schema(JsonTypeInfo type) => JsonSchemaExporter.GetJsonSchemaAsNode(type, ExporterOptions);

    private static JsonObject Descriptor(string name, JsonNode schema, bool required)
    {
        var descriptor = new JsonObject { ["name"] = name, ["schema"] = schema };
        if (required)
        {
            descriptor["required"] = true;
        }

        return descriptor;
    }

    private enum ResultKind
    {
        None, // a notification target: no result
        Typed,
        Null,
        Any,
    }
}
