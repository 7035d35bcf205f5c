using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace JsonRpc.Generators;

/// <summary>
/// Turns each <c>[JsonRpcContract]</c> interface into a proxy (<c>JsonRpcClient.Attach&lt;T&gt;</c>) and a target
/// (<c>JsonRpcClient.AddTarget&lt;T&gt;</c>, <c>JsonRpcDispatcher.AddTarget&lt;T&gt;</c>), with no reflection at run
/// time; shapes it cannot serve are reported as JSONRPC0xx errors.
/// </summary>
[Generator(LanguageNames.CSharp)]
public sealed class JsonRpcContractGenerator : IIncrementalGenerator
{
    /// <inheritdoc/>
    public void Initialize(IncrementalGeneratorInitializationContext context)
    {
        var contracts = context.SyntaxProvider.ForAttributeWithMetadataName(
            ContractReader.ContractAttribute,
            static (node, _) => node is InterfaceDeclarationSyntax,
            static (syntax, cancellationToken) => ContractReader.Read((INamedTypeSymbol)syntax.TargetSymbol, syntax.Attributes[0], cancellationToken));

        // The proxy and the client's registration only where JsonRpc.Client is referenced; the dispatcher's everywhere.
        var hasClient = context.CompilationProvider.Select(static (compilation, _) => compilation.GetTypeByMetadataName("JsonRpc.Client.JsonRpcClient") is not null);

        context.RegisterSourceOutput(contracts.Combine(hasClient), static (output, pair) =>
        {
            var (contract, client) = pair;
            var failed = false;
            foreach (var diagnostic in contract.Diagnostics)
            {
                output.ReportDiagnostic(diagnostic.ToDiagnostic());
                failed = true;
            }

            if (!failed)
            {
                output.AddSource(contract.SafeName + ".JsonRpcContract.g.cs", ContractEmitter.Emit(contract, client));
            }
        });
    }
}
