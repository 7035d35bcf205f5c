using System.Reflection;
using System.Reflection.Emit;

namespace JsonRpc.Core.Tests;

/// <summary>
/// The read path builds no document: no code in JsonRpc.Core touches JsonDocument, JsonElement, JsonNode or GetRawText
/// (but the method descriptions of rpc.discover, built on JsonSchemaExporter's JsonNode), found by walking the IL of
/// every method body (lambdas, iterators and local functions included).
/// </summary>
public class ReadPathDependencyTests
{
    private static readonly Dictionary<short, OpCode> OpCodesByValue = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(static field => (OpCode)field.GetValue(null)!)
        .ToDictionary(static op => op.Value);

    [Fact]
    public void CoreAssembly_UsesNoDocumentTypesButTheUnreachableFallback()
    {
        // Describing methods for rpc.discover (MethodShape, and the dispatcher's GetDescription) works on JsonNode, which
        // is what JsonSchemaExporter gives: that code runs only when someone asks for a description, never when a
        // message is read or dispatched. It is set aside here by name, so that nothing else hides among it.
        var used = MethodsUsingDocumentTypes(typeof(JsonRpcMessage).Assembly);
        used.RemoveWhere(static name => name.StartsWith("JsonRpc.Dispatch.MethodShape.", StringComparison.Ordinal)
            || name is "JsonRpc.Dispatch.JsonRpcDispatcher.GetDescription" or "JsonRpc.Dispatch.JsonRpcDispatcher.GetDescriptions"
                or "JsonRpc.Dispatch.JsonRpcDispatcher.DescriptionOf");

        // The one allowed use: Utf8JsonReaderAccess.CopyValue's fallback for a runtime that renamed Utf8JsonReader's
        // private fields, which Converter_FastPath_IsAvailableOnThisRuntime pins as unreachable here.
        Assert.Equal(["JsonRpc.Serialization.Utf8JsonReaderAccess.CopyValue"], used);
    }

    [Fact]
    public void MethodsUsingDocumentTypes_ThisTestAssembly_FindsItsOwnUses()
    {
        // The walk itself must see a use when there is one: this assembly's test helpers parse with JsonDocument.
        Assert.Contains(MethodsUsingDocumentTypes(typeof(ReadPathDependencyTests).Assembly), static name => name.Contains("JsonAssert", StringComparison.Ordinal));
    }

    private static SortedSet<string> MethodsUsingDocumentTypes(Assembly assembly)
    {
        var found = new SortedSet<string>(StringComparer.Ordinal);
        const BindingFlags All = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
        foreach (var type in assembly.GetTypes())
        {
            foreach (var method in type.GetMethods(All).Cast<MethodBase>().Concat(type.GetConstructors(All)))
            {
                if (method.GetMethodBody()?.GetILAsByteArray() is { } il && UsesDocumentTypes(method, il))
                {
                    found.Add(OwnerName(type) + "." + method.Name);
                }
            }
        }

        return found;
    }

    private static string OwnerName(Type type)
    {
        // Compiler-generated closures and state machines are reported under the type that declares them.
        while (type.DeclaringType is { } outer && type.Name.Contains('<', StringComparison.Ordinal))
        {
            type = outer;
        }

        return type.FullName!;
    }

    private static bool UsesDocumentTypes(MethodBase method, byte[] il)
    {
        var typeArguments = method.DeclaringType is { IsGenericType: true } owner ? owner.GetGenericArguments() : null;
        var methodArguments = method.IsGenericMethod ? method.GetGenericArguments() : null;
        var offset = 0;
        while (offset < il.Length)
        {
            var value = il[offset] == 0xFE ? (short)(0xFE00 | il[offset + 1]) : il[offset];
            offset += il[offset] == 0xFE ? 2 : 1;
            var op = OpCodesByValue[value];
            switch (op.OperandType)
            {
                case OperandType.InlineMethod or OperandType.InlineField or OperandType.InlineType or OperandType.InlineTok:
                    var member = method.Module.ResolveMember(BitConverter.ToInt32(il, offset), typeArguments, methodArguments);
                    if (member is not null && IsDocumentMember(member))
                    {
                        return true;
                    }

                    offset += 4;
                    break;
                case OperandType.InlineSwitch:
                    offset += 4 + (4 * BitConverter.ToInt32(il, offset));
                    break;
                case OperandType.InlineI8 or OperandType.InlineR:
                    offset += 8;
                    break;
                case OperandType.InlineNone:
                    break;
                case OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar:
                    offset += 1;
                    break;
                case OperandType.InlineVar:
                    offset += 2;
                    break;
                default:
                    offset += 4;
                    break;
            }
        }

        return false;
    }

    private static bool IsDocumentMember(MemberInfo member)
    {
        if (member.Name == "GetRawText")
        {
            return true;
        }

        var types = new List<Type?> { member as Type ?? member.DeclaringType };
        if (member is MethodBase called)
        {
            types.AddRange(called.GetParameters().Select(static p => p.ParameterType));
            types.Add((called as MethodInfo)?.ReturnType);
        }
        else if (member is FieldInfo field)
        {
            types.Add(field.FieldType);
        }

        return types.Any(static t => t is not null && IsDocumentType(t.HasElementType ? t.GetElementType()! : t));
    }

    private static bool IsDocumentType(Type type)
        => type == typeof(JsonDocument) || type == typeof(JsonElement) || type == typeof(JsonProperty)
            || type.Namespace == "System.Text.Json.Nodes"
            || (type.IsGenericType && type.GetGenericArguments().Any(IsDocumentType));
}
