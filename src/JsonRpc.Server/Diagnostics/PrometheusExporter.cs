using System.Buffers;
using System.Diagnostics.Metrics;
using System.Globalization;
using System.Text;

namespace JsonRpc.Server.Diagnostics;

/// <summary>
/// Serves the instruments of the router's meters (<see cref="RouterMetrics.MeterName"/> and every other meter named
/// <c>JsonRpc.*</c>) in Prometheus' text exposition format (0.0.4), read through a <see cref="MeterListener"/>: the
/// observable instruments are read at each scrape, so they cost routing nothing; counters and histograms are summed as
/// they are recorded. OpenTelemetry's names become Prometheus' (dots to underscores, the unit as a suffix, <c>_total</c>
/// on counters), as the OpenTelemetry Prometheus exporter names them.
/// </summary>
internal sealed class PrometheusExporter : IDisposable
{
    /// <summary>The scrape's content type.</summary>
    public const string ContentType = "text/plain; version=0.0.4; charset=utf-8";

    // OpenTelemetry's default explicit bucket boundaries, in the instrument's unit.
    private static readonly double[] DefaultBuckets = [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000];
    private static readonly double[] SecondsBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

    private readonly MeterListener _listener = new();
    private readonly Lock _scrape = new();
    private readonly List<InstrumentState> _instruments = [];

    /// <param name="meterFactory">
    /// The app's meter factory: only the meters it made are served (other routers in the same process, with meters of
    /// the same names, have their own); without one, every <c>JsonRpc.*</c> meter of the process.
    /// </param>
    public PrometheusExporter(IMeterFactory? meterFactory = null)
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            var meter = instrument.Meter;
            if ((meter.Name == "JsonRpc" || meter.Name.StartsWith("JsonRpc.", StringComparison.Ordinal))
                && (meterFactory is null || ReferenceEquals(meter.Scope, meterFactory)))
            {
                var state = new InstrumentState(instrument);
                lock (_instruments)
                {
                    _instruments.Add(state);
                }

                listener.EnableMeasurementEvents(instrument, state);
            }
        };
        _listener.MeasurementsCompleted = (instrument, state) =>
        {
            lock (_instruments)
            {
                _instruments.Remove((InstrumentState)state!);
            }
        };
        _listener.SetMeasurementEventCallback<long>(static (_, value, tags, state) => ((InstrumentState)state!).Record(value, tags));
        _listener.SetMeasurementEventCallback<int>(static (_, value, tags, state) => ((InstrumentState)state!).Record(value, tags));
        _listener.SetMeasurementEventCallback<double>(static (_, value, tags, state) => ((InstrumentState)state!).Record(value, tags));
        _listener.Start();
    }

    /// <summary>Reads every instrument now and writes the exposition.</summary>
    public void Write(IBufferWriter<byte> output)
    {
        var text = new StringBuilder(4096);
        lock (_scrape)
        {
            InstrumentState[] instruments;
            lock (_instruments)
            {
                instruments = [.. _instruments];
            }

            foreach (var instrument in instruments)
            {
                instrument.BeginObservation();
            }

            _listener.RecordObservableInstruments();
            var written = new HashSet<string>(StringComparer.Ordinal);
            foreach (var instrument in instruments.OrderBy(static i => i.Name, StringComparer.Ordinal))
            {
                // Two meters of the same name made by one factory would repeat a family: the first one wins.
                if (written.Add(instrument.Name))
                {
                    instrument.WriteTo(text);
                }
            }
        }

        Encoding.UTF8.GetBytes(text.ToString(), output);
    }

    public void Dispose() => _listener.Dispose();

    internal enum Kind
    {
        Counter,
        Gauge,
        Histogram,
    }

    /// <summary>One instrument's series, by their labels.</summary>
    private sealed class InstrumentState
    {
        private readonly Instrument _instrument;
        private readonly Kind _kind;
        private readonly bool _observable;
        private readonly bool _replaces; // the value reported is the value (observables, gauges), not an increment
        private readonly double[] _buckets;
        private readonly Dictionary<string, Series> _series = new(StringComparer.Ordinal);

        public InstrumentState(Instrument instrument)
        {
            _instrument = instrument;
            _observable = instrument.IsObservable;
            var type = instrument.GetType().Name;
            _kind = type.StartsWith("Histogram", StringComparison.Ordinal) ? Kind.Histogram
                : type.StartsWith("Counter", StringComparison.Ordinal) || type.StartsWith("ObservableCounter", StringComparison.Ordinal) ? Kind.Counter
                : Kind.Gauge;
            _replaces = _observable || type.StartsWith("Gauge", StringComparison.Ordinal);
            _buckets = instrument.Unit == "s" ? SecondsBuckets : DefaultBuckets;
            Name = PrometheusName(instrument.Name, instrument.Unit, _kind);
        }

        public string Name { get; }

        /// <summary>Observable instruments report their whole state at each scrape: series not reported are gone.</summary>
        public void BeginObservation()
        {
            if (_observable)
            {
                lock (_series)
                {
                    _series.Clear();
                }
            }
        }

        public void Record(double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
        {
            var labels = Labels(tags);
            lock (_series)
            {
                if (!_series.TryGetValue(labels, out var series))
                {
                    series = new Series(_kind == Kind.Histogram ? new long[_buckets.Length + 1] : null);
                    _series.Add(labels, series);
                }

                switch (_kind)
                {
                    case Kind.Histogram:
                        var index = Array.BinarySearch(_buckets, value);
                        series.Buckets![index >= 0 ? index : ~index]++;
                        series.Count++;
                        series.Value += value;
                        break;
                    default:
                        series.Value = _replaces ? value : series.Value + value;
                        break;
                }
            }
        }

        public void WriteTo(StringBuilder text)
        {
            lock (_series)
            {
                if (_series.Count == 0)
                {
                    return;
                }

                if (_instrument.Description is { Length: > 0 } help)
                {
                    text.Append("# HELP ").Append(Name).Append(' ').Append(help.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\n", "\\n", StringComparison.Ordinal)).Append('\n');
                }

                text.Append("# TYPE ").Append(Name).Append(' ').Append(_kind switch
                {
                    Kind.Counter => "counter",
                    Kind.Histogram => "histogram",
                    _ => "gauge",
                }).Append('\n');
                foreach (var (labels, series) in _series.OrderBy(static s => s.Key, StringComparer.Ordinal))
                {
                    if (_kind != Kind.Histogram)
                    {
                        Sample(text, Name, labels, null, series.Value);
                        continue;
                    }

                    long cumulative = 0;
                    for (var i = 0; i < _buckets.Length; i++)
                    {
                        cumulative += series.Buckets![i];
                        Sample(text, Name + "_bucket", labels, Number(_buckets[i]), cumulative);
                    }

                    Sample(text, Name + "_bucket", labels, "+Inf", series.Count);
                    Sample(text, Name + "_sum", labels, null, series.Value);
                    Sample(text, Name + "_count", labels, null, series.Count);
                }
            }
        }

        private static void Sample(StringBuilder text, string name, string labels, string? le, double value)
        {
            text.Append(name);
            if (labels.Length > 0 || le is not null)
            {
                text.Append('{').Append(labels);
                if (le is not null)
                {
                    text.Append(labels.Length > 0 ? "," : "").Append("le=\"").Append(le).Append('"');
                }

                text.Append('}');
            }

            text.Append(' ').Append(Number(value)).Append('\n');
        }

        private static string Labels(ReadOnlySpan<KeyValuePair<string, object?>> tags)
        {
            if (tags.Length == 0)
            {
                return "";
            }

            var sorted = tags.ToArray();
            Array.Sort(sorted, static (a, b) => string.CompareOrdinal(a.Key, b.Key));
            var text = new StringBuilder();
            foreach (var (key, value) in sorted)
            {
                text.Append(text.Length > 0 ? "," : "").Append(Sanitize(key)).Append("=\"");
                foreach (var c in Convert.ToString(value, CultureInfo.InvariantCulture) ?? "")
                {
                    _ = c switch
                    {
                        '\\' => text.Append("\\\\"),
                        '"' => text.Append("\\\""),
                        '\n' => text.Append("\\n"),
                        _ => text.Append(c),
                    };
                }

                text.Append('"');
            }

            return text.ToString();
        }
    }

    private sealed class Series(long[]? buckets)
    {
        public long[]? Buckets { get; } = buckets;

        public double Value { get; set; }

        public long Count { get; set; }
    }

    /// <summary>
    /// <c>jsonrpc.router.calls.routed</c> (a counter of <c>{call}</c>) becomes <c>jsonrpc_router_calls_routed_total</c>;
    /// <c>jsonrpc.router.bytes.sent</c> in <c>By</c> becomes <c>jsonrpc_router_bytes_sent_bytes_total</c>.
    /// </summary>
    internal static string PrometheusName(string name, string? unit, Kind kind)
    {
        var result = Sanitize(name);
        var suffix = unit switch
        {
            null or "" or "1" => "",
            "By" => "bytes",
            "s" => "seconds",
            "ms" => "milliseconds",
            _ when unit.StartsWith('{') => "",
            _ => Sanitize(unit),
        };
        if (suffix.Length > 0 && !result.EndsWith("_" + suffix, StringComparison.Ordinal))
        {
            result += "_" + suffix;
        }

        return kind == Kind.Counter && !result.EndsWith("_total", StringComparison.Ordinal) ? result + "_total" : result;
    }

    private static string Sanitize(string name)
    {
        var chars = name.ToCharArray();
        for (var i = 0; i < chars.Length; i++)
        {
            if (!(char.IsAsciiLetterOrDigit(chars[i]) || chars[i] is '_' or ':') || (i == 0 && char.IsAsciiDigit(chars[i])))
            {
                chars[i] = '_';
            }
        }

        return new string(chars);
    }

    private static string Number(double value) => value switch
    {
        double.PositiveInfinity => "+Inf",
        double.NegativeInfinity => "-Inf",
        double.NaN => "NaN",
        _ => value.ToString("R", CultureInfo.InvariantCulture),
    };
}
