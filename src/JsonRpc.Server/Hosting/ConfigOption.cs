using System.Globalization;
using Microsoft.Extensions.Configuration;

namespace JsonRpc.Server;

/// <summary>
/// One setting, written once: its .NET name (<c>MaxMemory</c>, the configuration key and property), its snake_case
/// name (<c>max_memory</c>: the original router's configuration key and the command-line switch), what it takes, its
/// default and its help. The tables of these drive configuration binding, the command-line switch mappings,
/// <c>--help</c> and the names in error messages.
/// </summary>
internal class ConfigOption(string name, string snake, string value, string defaultText, string help)
{
    public string Name { get; } = name;

    public string Snake { get; } = snake;

    /// <summary>What the switch takes, for <c>--help</c>: <c>&lt;ms&gt;</c>, <c>[true|false]</c>.</summary>
    public string Value { get; } = value;

    public string Default { get; } = defaultText;

    public string Help { get; } = help;

    /// <summary>Whether the switch may be given without a value (<c>--require_registration</c> means true).</summary>
    public virtual bool IsFlag => false;

    /// <summary>How messages name the setting, for configuration files and command lines alike: <c>MaxMemory (max_memory)</c>.</summary>
    public override string ToString() => $"{Name} ({Snake})";

    /// <summary>The setting named <paramref name="name"/> in <paramref name="table"/>, as messages name it.</summary>
    public static string Describe<T>(IEnumerable<T> table, string name) where T : ConfigOption
        => table.FirstOrDefault(o => o.Name == name)?.ToString() ?? name;

    /// <summary>Switch mappings for <c>AddCommandLine</c>: <c>--max_memory</c> sets <c>JsonRpcRouter:max_memory</c>.</summary>
    public static Dictionary<string, string> SwitchMappings(IEnumerable<ConfigOption> table)
    {
        var mappings = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var option in table)
        {
            mappings["--" + option.Snake] = JsonRpcRouterOptions.SectionName + ":" + option.Snake;
        }

        return mappings;
    }
}

/// <summary>A setting of <typeparamref name="T"/>, with how it is read from configuration (no reflection: trimming and AOT safe).</summary>
internal sealed class ConfigOption<T>(string name, string snake, string value, string defaultText, string help, Action<IConfiguration, ConfigOption, T> bind, bool isFlag = false)
    : ConfigOption(name, snake, value, defaultText, help)
{
    public override bool IsFlag => isFlag;

    /// <summary>Sets the option on <paramref name="options"/> when <paramref name="section"/> has it under either name.</summary>
    /// <exception cref="InvalidOperationException">The value cannot be read; the message names the key.</exception>
    public void Bind(IConfiguration section, T options) => bind(section, this, options);

    public static ConfigOption<T> Int(string name, string snake, string value, int defaultValue, string help, Action<T, int> set)
        => Of(name, snake, value, defaultValue.ToString(CultureInfo.InvariantCulture), help, JsonRpcRouterConfiguration.ReadInt, set);

    public static ConfigOption<T> Long(string name, string snake, string value, string defaultText, string help, Action<T, long> set)
        => Of(name, snake, value, defaultText, help, JsonRpcRouterConfiguration.ReadLong, set);

    /// <summary>A duration: a TimeSpan under the .NET name (<c>00:00:30</c>), milliseconds under the snake_case one.</summary>
    public static ConfigOption<T> Time(string name, string snake, TimeSpan defaultValue, string help, Action<T, TimeSpan> set)
        => Of(name, snake, "<ms>", ((long)defaultValue.TotalMilliseconds).ToString(CultureInfo.InvariantCulture), help, JsonRpcRouterConfiguration.ReadTime, set);

    public static ConfigOption<T> Bool(string name, string snake, bool defaultValue, string help, Action<T, bool> set)
        => Of(name, snake, "[true|false]", defaultValue ? "true" : "false", help, JsonRpcRouterConfiguration.ReadBool, set, isFlag: true);

    public static ConfigOption<T> Text(string name, string snake, string value, string? defaultValue, string help, Action<T, string> set)
        => new(name, snake, value, defaultValue ?? "none", help, (section, o, options) =>
        {
            if (JsonRpcRouterConfiguration.ReadString(section, o.Name, o.Snake) is { } v)
            {
                set(options, v);
            }
        });

    // A value read under either name with the reader of its kind, set only when present.
    private static ConfigOption<T> Of<TValue>(string name, string snake, string value, string defaultText, string help,
        Func<IConfiguration, string, string, TValue?> read, Action<T, TValue> set, bool isFlag = false)
        where TValue : struct
        => new(name, snake, value, defaultText, help, (section, o, options) =>
        {
            if (read(section, o.Name, o.Snake) is { } v)
            {
                set(options, v);
            }
        }, isFlag);
}
