using Microsoft.CodeAnalysis;
using static JsonRpc.Generators.Tests.GeneratorHarness;

namespace JsonRpc.Generators.Tests;

/// <summary>The generator on snippets: valid contracts give code that compiles; each unsupported shape its error, at its place.</summary>
public sealed class ContractGeneratorTests
{
    private const string Context = """
        public sealed class Ctx : System.Text.Json.Serialization.JsonSerializerContext
        {
            public Ctx() : base(null) { }
            public static Ctx Default { get; } = new();
            protected override System.Text.Json.JsonSerializerOptions? GeneratedSerializerOptions => null;
            public override System.Text.Json.Serialization.Metadata.JsonTypeInfo? GetTypeInfo(Type type) => null;
        }

        """;

    [Fact]
    public void Generate_EverySupportedShape_CompilesWithoutDiagnostics()
    {
        var result = Run(Usings + Context + """
            namespace App.Contracts
            {
            public record Item(string Name);

            [JsonRpcContract(typeof(global::Ctx))]
            public interface IShop : IBase
            {
                Task<int> CountAsync(CancellationToken cancellationToken);
                ValueTask<Item?> FindAsync(string name, int? limit);
                Task ClearAsync();
                ValueTask TouchAsync(string @event, object @class);
                [JsonRpcMethod("shop.import")] Task<long> ImportAsync(string path, IProgress<double> progress, CancellationToken cancellationToken = default);
                IAsyncEnumerable<Item> ListAsync(int page, CancellationToken cancellationToken);
                IAsyncEnumerable<string> NamesAsync();
                Task<int[]> ManyAsync(int a, int b, int c, int d, int e, int f, List<Item> items, Dictionary<string, int> map);
            }

            public interface IBase
            {
                Task<string> PingAsync();
            }

            [JsonRpcContract]
            internal interface IEmpty
            {
            }

            public static class Nest
            {
                [JsonRpcContract]
                public interface INested { Task<int> GetAsync(); }
            }
            }
            """);

        Assert.Empty(result.GeneratorDiagnostics);
        Assert.Empty(result.CompileErrors);
        Assert.Equal(3, result.Generated.Length);
        var shop = Assert.Single(result.Generated, code => code.Contains("IShop"));
        Assert.Contains("\"shop.import\"", shop);
        Assert.Contains("\"PingAsync\"", shop);
        Assert.Contains("file sealed class Proxy", shop);
        Assert.Contains("ModuleInitializer", shop);
        Assert.Contains("file sealed class PerCall", shop);
        Assert.Contains("RegisterPerCall<global::App.Contracts.IShop>", shop);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Generate_PerCallForwarder_RegistersItself_AndPassesTheEnumeratorToken(bool withClient)
    {
        var result = Run(Usings + """
            [JsonRpcContract]
            public interface IFeed { IAsyncEnumerable<int> CountAsync(int to, CancellationToken cancellationToken); Task<int> AddAsync(int a, int b); }
            """, withClient);

        Assert.Empty(result.GeneratorDiagnostics);
        Assert.Empty(result.CompileErrors);
        var code = Assert.Single(result.Generated);
        Assert.Contains("RegisterPerCall<global::IFeed>", code);
        Assert.Contains("[global::System.Runtime.CompilerServices.EnumeratorCancellation] global::System.Threading.CancellationToken cancellationToken", code);
        Assert.Contains("EndAsync(__lifetime)", code);
    }

    [Fact]
    public void Generate_WithoutJsonRpcClient_WritesTheDispatcherTargetOnly_AndCompiles()
    {
        var result = Run(Usings + """
            [JsonRpcContract]
            public interface ICalc { Task<int> AddAsync(int a, int b); }
            """, withClient: false);

        Assert.Empty(result.GeneratorDiagnostics);
        Assert.Empty(result.CompileErrors);
        var code = Assert.Single(result.Generated);
        Assert.DoesNotContain("JsonRpcClient", code);
        Assert.Contains("RegisterDispatcherTarget", code);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Generate_ProgressAndStreams_AreServedByTheDispatcher_WithTheCallContext(bool withClient)
    {
        var result = Run(Usings + """
            [JsonRpcContract]
            public interface IJobs
            {
                Task<long> ImportAsync(string path, IProgress<int> progress, CancellationToken cancellationToken);
                ValueTask TouchAsync(IProgress<string> progress);
                IAsyncEnumerable<int> CountAsync(int to, CancellationToken cancellationToken);
                IAsyncEnumerable<string> NamesAsync();
                Task<int> PlainAsync(int a);
            }
            """, withClient);

        Assert.Empty(result.GeneratorDiagnostics);
        Assert.Empty(result.CompileErrors);
        var code = Assert.Single(result.Generated);
        Assert.DoesNotContain("NotSupportedException", code);
        Assert.Contains("dispatcher.AddWithContext<Args0, long>(\"ImportAsync\"", code);
        Assert.Contains("dispatcher.AddNotificationWithContext<Args1>(\"TouchAsync\"", code);
        Assert.Contains("dispatcher.AddStream<Args2, int>(\"CountAsync\"", code);
        Assert.Contains("dispatcher.AddStream<Args3, string>(\"NamesAsync\"", code);
        Assert.Contains("__call.CreateProgress<int>(__a.A1", code);

        // A method without progress or a stream keeps the plain registration (no context on its path).
        Assert.Contains("dispatcher.Add<Args4, int>(\"PlainAsync\", (__a, __ct)", code);
    }

    [Theory]
    [InlineData("JSONRPC001", "int [|Add|](int a);")]
    [InlineData("JSONRPC001", "Task<int>? Add(int a); IEnumerable<int> [|Other|]();")]
    [InlineData("JSONRPC002", "Task Add(ref int [|a|]);")]
    [InlineData("JSONRPC002", "Task Add(out int [|a|]);")]
    [InlineData("JSONRPC002", "Task Add(in int [|a|]);")]
    [InlineData("JSONRPC003", "Task<T> [|Get|]<T>();")]
    [InlineData("JSONRPC004", "Task Add(int a); Task [|Add|](int a, int b);")]
    [InlineData("JSONRPC004", "[JsonRpcMethod(\"x\")] Task A(); [JsonRpcMethod(\"x\")] Task [|B|]();")]
    [InlineData("JSONRPC006", "int [|Count|] { get; }")]
    [InlineData("JSONRPC011", "event Action [|Changed|];")]
    [InlineData("JSONRPC011", "event Action<int> [|Changed|];")]
    [InlineData("JSONRPC011", "event System.ComponentModel.PropertyChangedEventHandler [|Changed|];")]
    [InlineData("JSONRPC004", "Task Changed(); event EventHandler [|Changed|];")]
    [InlineData("JSONRPC009", "[JsonRpcMethod(\"rpc.changed\")] event EventHandler [|Changed|];")]
    [InlineData("JSONRPC007", "Task Add(CancellationToken a, CancellationToken [|b|]);")]
    [InlineData("JSONRPC007", "Task Add(IAsyncEnumerable<int> [|values|]);")]
    [InlineData("JSONRPC007", "IAsyncEnumerable<int> Add(IProgress<int> [|progress|]);")]
    [InlineData("JSONRPC009", "[JsonRpcMethod(\"$/cancelRequest\")] Task [|A|]();")]
    [InlineData("JSONRPC009", "[JsonRpcMethod(\"rpc.discover\")] Task [|A|]();")]
    [InlineData("JSONRPC009", "[JsonRpcMethod(\"\")] Task [|A|]();")]
    public void Generate_UnsupportedMember_ReportsItsErrorAtTheMember_AndWritesNothing(string id, string members)
    {
        var (source, span) = Marked(Usings + "[JsonRpcContract] public interface IBad { " + members + " }");
        var result = Run(source);

        var diagnostic = Assert.Single(result.GeneratorDiagnostics);
        Assert.Equal(id, diagnostic.Id);
        Assert.Equal(DiagnosticSeverity.Error, diagnostic.Severity);
        Assert.Equal(span, diagnostic.Location.SourceSpan);
        Assert.Empty(result.Generated);
    }

    [Fact]
    public void Generate_Events_CompileOnBothSides_WithWireNamesAndPerCallNoOps()
    {
        var result = Run(Usings + Context + """
            namespace App
            {
            public record Tick(int Count);

            [JsonRpcContract(typeof(global::Ctx))]
            public interface IClock : IBaseEvents
            {
                Task<int> NowAsync();
                event EventHandler? Started;
                event EventHandler<Tick> Ticked;
                [JsonRpcMethod("clock.stopped")] event EventHandler<string?>? Stopped;
                event EventHandler<int> @event;
            }

            public interface IBaseEvents
            {
                event EventHandler<long> Reset;
            }

            [JsonRpcContract]
            public interface IEventsOnly
            {
                event EventHandler Pinged;
            }
            }
            """);

        Assert.Empty(result.GeneratorDiagnostics);
        Assert.Empty(result.CompileErrors);
        var code = string.Join("\n", result.Generated);

        // The target sends each event as StreamJsonRpc does; the proxy listens under the same names.
        Assert.Contains("SendEvent(sender, \"Started\")", code);
        Assert.Contains("SendEvent<global::App.Tick>(sender, \"Ticked\", __args, __type1)", code);
        Assert.Contains("\"clock.stopped\"", code);
        Assert.Contains("Listen(_client, \"Reset\", OnEvent4)", code);
        Assert.Contains("dispatcher.Remove(\"NowAsync\");", code);

        // Without JsonRpc.Client: the dispatcher's target only, still compiling.
        var withoutClient = Run(Usings + "[JsonRpcContract] public interface IE { event EventHandler<int> Changed; Task PingAsync(); }", withClient: false);
        Assert.Empty(withoutClient.GeneratorDiagnostics);
        Assert.Empty(withoutClient.CompileErrors);
    }

    [Theory]
    [InlineData("JSONRPC005", "[JsonRpcContract] public interface [|IBad|]<T> { Task<T> GetAsync(); }")]
    [InlineData("JSONRPC008", "[JsonRpcContract(typeof(string))] public interface [|IBad|] { Task GetAsync(); }")]
    [InlineData("JSONRPC010", "public class Outer { [JsonRpcContract] private interface [|IBad|] { Task GetAsync(); } }")]
    public void Generate_UnsupportedContract_ReportsItsErrorAtTheInterface(string id, string declaration)
    {
        var (source, span) = Marked(Usings + declaration);
        var result = Run(source);

        var diagnostic = Assert.Single(result.GeneratorDiagnostics);
        Assert.Equal(id, diagnostic.Id);
        Assert.Equal(span, diagnostic.Location.SourceSpan);
        Assert.Contains("IBad", diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture));
    }

    [Theory]
    [InlineData("Task Add(int a); Task Add(int a, int b);", "'Add'", "[JsonRpcMethod")]           // both methods and the fix
    [InlineData("event Action<int> Changed;", "'Changed'", "System.Action<int>", "EventHandler<T>")] // the type and what is supported
    public void Generate_Diagnostic_MessageNamesTheMemberAndTheWayOut(string members, params string[] expected)
    {
        var result = Run(Usings + "[JsonRpcContract] public interface IBad { " + members + " }");

        var message = Assert.Single(result.GeneratorDiagnostics).GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        foreach (var part in expected)
        {
            Assert.Contains(part, message);
        }
    }

    // "[|x|]" marks where the diagnostic must be; returns the source without the marks and that span.
    private static (string Source, Microsoft.CodeAnalysis.Text.TextSpan Span) Marked(string marked)
    {
        var start = marked.IndexOf("[|", StringComparison.Ordinal);
        var end = marked.IndexOf("|]", StringComparison.Ordinal) - 2;
        return (marked.Replace("[|", string.Empty).Replace("|]", string.Empty), new Microsoft.CodeAnalysis.Text.TextSpan(start, end - start));
    }
}
