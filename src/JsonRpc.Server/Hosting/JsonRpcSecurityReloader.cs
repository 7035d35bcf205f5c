using JsonRpc.Server.Diagnostics;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.FileProviders;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Microsoft.Extensions.Primitives;

namespace JsonRpc.Server.Hosting;

/// <summary>
/// Reloads the router's security settings while it runs: when the app's configuration changes (appsettings.json is
/// reloaded on change by default) or, with <see cref="JsonRpcRouterOptions.SecurityFile"/>, when that file changes. A
/// configuration that cannot work is logged and the one in force stays; nothing here can stop the router.
/// </summary>
internal sealed class JsonRpcSecurityReloader(JsonRpcRouter router, IOptions<JsonRpcRouterOptions> options, IServiceProvider services) : IHostedService, IDisposable
{
    // How often the security file's write time is also checked: a file-system notification can be missed (an edit
    // landing while the previous one is being read, mounts without inotify), and a missed edit must not leave a
    // removed token in force.
    internal static readonly TimeSpan FileCheckInterval = TimeSpan.FromSeconds(2);

    private readonly List<IDisposable> _subscriptions = [];
    private readonly Lock _reloading = new();
    private PhysicalFileProvider? _files;
    private string? _lastApplied;
    private DateTime _lastWrite;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        var file = options.Value.SecurityFile;
        var configuration = services.GetService(typeof(IConfiguration)) as IConfiguration;
        Started(configuration);
        if (file is not null)
        {
            var path = Path.GetFullPath(file);
            _files = new PhysicalFileProvider(Path.GetDirectoryName(path)!) { UsePollingFileWatcher = false };
            var name = Path.GetFileName(path);
            _subscriptions.Add(ChangeToken.OnChange(() => _files.Watch(name), () => Reload(configuration, file)));
            _lastWrite = LastWrite(path);
            _subscriptions.Add(new Timer(_ =>
            {
                var written = LastWrite(path);
                if (written != _lastWrite)
                {
                    _lastWrite = written;
                    Reload(configuration, file);
                }
            }, null, FileCheckInterval, FileCheckInterval));
        }
        else if (configuration is not null)
        {
            _subscriptions.Add(ChangeToken.OnChange(configuration.GetReloadToken, () => Reload(configuration, null)));
        }

        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        Dispose();
        return Task.CompletedTask;
    }

    public void Dispose()
    {
        foreach (var subscription in _subscriptions)
        {
            subscription.Dispose();
        }

        _subscriptions.Clear();
        _files?.Dispose();
    }

    private static DateTime LastWrite(string path)
    {
        try
        {
            return File.GetLastWriteTimeUtc(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return default;
        }
    }

    private void Reload(IConfiguration? configuration, string? file)
    {
        // The watcher and the periodic check may both fire for one edit: one reload at a time, the second finding
        // the same settings already applied.
        lock (_reloading)
        {
            ReloadCore(configuration, file);
        }
    }

    private void ReloadCore(IConfiguration? configuration, string? file)
    {
        try
        {
            IConfiguration section = configuration?.GetSection(JsonRpcRouterOptions.SectionName) ?? (IConfiguration)new ConfigurationBuilder().Build();
            var security = JsonRpcRouterConfiguration.ReadSecurity(section, file);
            var fingerprint = Fingerprint(configuration, file);
            if (fingerprint == _lastApplied)
            {
                return; // the change was elsewhere in the configuration
            }

            if (router.Security is not null && JsonRpc.Server.Security.SecurityPolicy.ConfiguresNothing(security))
            {
                // Fail closed: an emptied file or a section deleted by mistake must not open the router to everyone.
                RouterLog.SecurityReloadFailed(router.Logger,
                    "the security settings are now empty; switching security off takes a restart (or UpdateSecurity(null) in code)");
                return;
            }

            router.UpdateSecurity(security);
            _lastApplied = fingerprint;
        }
        catch (Exception ex)
        {
            // Whatever the file holds, the settings in force stay, and the watcher and the timer keep running (an
            // exception out of their callbacks would end the watching, or the process).
            RouterLog.SecurityReloadFailed(router.Logger, ex.Message);
        }
    }

    // What the security settings are made of, to skip reloads for changes to other settings.
    private static string Fingerprint(IConfiguration? configuration, string? file)
    {
        if (file is not null)
        {
            return File.ReadAllText(file);
        }

        var section = configuration?.GetSection(JsonRpcRouterOptions.SectionName + ":Security");
        return section is null ? "" : string.Join("\n", section.AsEnumerable().OrderBy(static p => p.Key, StringComparer.Ordinal).Select(static p => p.Key + "=" + p.Value));
    }

    // Records the settings the router started with, so that the first unrelated change reloads nothing.
    private void Started(IConfiguration? configuration)
    {
        try
        {
            _lastApplied = Fingerprint(configuration, options.Value.SecurityFile);
        }
        catch (IOException)
        {
        }
    }
}
