#!/usr/bin/env python3
"""The README's summary table: for each workload and server/callers, the median over the rounds of calls/s, the
broker's syscalls per call and CPU us per call, from the load generator's JSON reports in the folders given."""
import json, statistics, sys, glob, os

WORKLOADS = [("closed-c10-50B", "closed loop, 10 x 50 B"), ("pipelined-w64-c10-50B", "64 in flight, 10 x 50 B"),
             ("closed-c50-100KB", "closed loop, 50 x 100 KB")]
WHO = [("ours", "raw", "router, raw callers"), ("ours", "client", "router, JsonRpcClient callers"), ("nats", "nats", "nats-server, NATS.Net callers")]

def rounds(folder, workload):
    """Each report's round (from its name, r1-…) and its runs."""
    for path in sorted(glob.glob(os.path.join(folder, f"r*-{workload}.json"))):
        yield int(os.path.basename(path).split("-")[0][1:]), json.load(open(path))["runs"]

def runs(folder, workload):
    for _, rs in rounds(folder, workload):
        yield from rs

def cell(values, fmt):
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    return fmt.format(statistics.median(values)) + " (" + " / ".join(fmt.format(v) for v in values) + ")"

folders = sys.argv[1:]
print("| workload | server, callers | " + " | ".join(f"{os.path.basename(f.rstrip('/'))}: calls/s | syscalls/call | CPU us/call" for f in folders) + " |")
print("| --- | --- | " + " | ".join("---: | ---: | ---:" for _ in folders) + " |")
for workload, name in WORKLOADS:
    for implementation, caller, who in WHO:
        cells = []
        for folder in folders:
            rs = [r for r in runs(folder, workload) if r["implementation"] == implementation and r["caller"] == caller]
            ok = all(r["correctness"]["passed"] for r in rs)
            sp = [r.get("server_process") or {} for r in rs]
            cells.append(cell([r["calls_per_second"] for r in rs], "{:,.0f}") + ("" if ok else " NOT ALL CORRECT"))
            cells.append(cell([s.get("syscalls_per_call") for s in sp], "{:.2f}"))
            cells.append(cell([s.get("cpu_us_per_call") for s in sp], "{:.1f}"))
        print(f"| {name} | {who} | " + " | ".join(cells) + " |")

# Round-paired ratios: each round's run against the same round's other run (the rounds share a time slot on a VM whose
# speed moves between hours), then the median of the rounds.
def by_round(folder, workload, implementation, caller):
    return {rnd: r for rnd, rs in rounds(folder, workload) for r in rs if r["implementation"] == implementation and r["caller"] == caller}

def ratio_cell(a, b, value):
    ratios = [value(a[k]) / value(b[k]) for k in sorted(a) if k in b and value(a[k]) and value(b[k])]
    if not ratios:
        return "-"
    return "{:.2f}x".format(statistics.median(ratios)) + " (" + " / ".join("{:.2f}".format(x) for x in ratios) + ")"

print()
print("Round-paired, median (each round):")
print()
print("| workload | " + " | ".join(f"{os.path.basename(f.rstrip('/'))}: router/NATS calls/s, JsonRpcClient callers | JsonRpcClient/raw callers | router/nats-server CPU per call (JsonRpcClient callers)" for f in folders) + " |")
print("| --- | " + " | ".join("---: | ---: | ---:" for _ in folders) + " |")
for workload, name in WORKLOADS:
    cells = []
    for folder in folders:
        client = by_round(folder, workload, "ours", "client")
        raw = by_round(folder, workload, "ours", "raw")
        nats = by_round(folder, workload, "nats", "nats")
        cells.append(ratio_cell(client, nats, lambda r: r["calls_per_second"]))
        cells.append(ratio_cell(client, raw, lambda r: r["calls_per_second"]))
        cells.append(ratio_cell(client, nats, lambda r: (r.get("server_process") or {}).get("cpu_us_per_call") or 0))
    print(f"| {name} | " + " | ".join(cells) + " |")
