#!/usr/bin/env python3
"""Summarizes run-readahead.sh's JSON files: values/s per run, the router's share of the direct speed, and the router
process's CPU us and syscalls per streamed value and per batch (reports older than these fields show '?'), per stack
(StreamJsonRpc peers; ours: JsonRpcClient callers and a JsonRpcDispatcher generator; reports before stacks are StreamJsonRpc)."""
import glob, json, os, re, statistics, sys

folder = sys.argv[1]
rows = {}
for path in sorted(glob.glob(os.path.join(folder, "r*-*-c*.json"))):
    m = re.match(r"r(\d+)-(on|off)-c(\d+)\.json", os.path.basename(path))
    round_, mode, callers = int(m.group(1)), m.group(2), int(m.group(3))
    runs = json.load(open(path))["streaming"]["runs"]
    for stack in sorted({r.get("stack", "streamjsonrpc") for r in runs}):
        mine = [r for r in runs if r.get("stack", "streamjsonrpc") == stack]
        speed = {(r["path"], r["prefetch"]): r["values_per_second"] for r in mine}
        cost = {r["prefetch"]: r for r in mine if r["path"] == "router"}
        bad = [r["problem"] for r in mine if r["problem"]]
        rows.setdefault((stack, callers, mode), []).append((round_, speed, cost, bad))

def fmt(value, digits=2):
    return "?" if value is None else f"{value:.{digits}f}"

def prefetched(speed):
    return max(p for _, p in speed)

print("| stack | callers | read-ahead | round | direct p0 | router p0 | router/direct p0 | direct prefetch | router prefetch | router/direct prefetch | router us/value p0 | syscalls/value p0 | router us/batch prefetch | syscalls/batch prefetch | problems |")
print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
for (stack, callers, mode), items in sorted(rows.items()):
    for round_, s, c, bad in items:
        p = prefetched(s)
        p0 = s[("router", 0)] / s[("direct", 0)]
        pp = s[("router", p)] / s[("direct", p)]
        print(f"| {stack} | {callers} | {mode} | {round_} | {s[('direct', 0)]:,} | {s[('router', 0)]:,} | {p0:.0%} | {s[('direct', p)]:,} | {s[('router', p)]:,} | {pp:.0%} "
              f"| {fmt(c[0].get('router_cpu_us_per_value'))} | {fmt(c[0].get('router_syscalls_per_value'))} "
              f"| {fmt(c[p].get('router_cpu_us_per_batch'))} | {fmt(c[p].get('router_syscalls_per_batch'))} | {'; '.join(bad) or 'none'} |")
print()
print("| stack | callers | read-ahead | median router/direct, prefetch off | median router/direct, prefetch on | median router us/batch, prefetch on | median syscalls/batch, prefetch on |")
print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
for (stack, callers, mode), items in sorted(rows.items()):
    p = prefetched(items[0][1])
    p0 = statistics.median(s[("router", 0)] / s[("direct", 0)] for _, s, _, _ in items)
    pp = statistics.median(s[("router", p)] / s[("direct", p)] for _, s, _, _ in items)
    us = [c[p].get("router_cpu_us_per_batch") for _, _, c, _ in items if c[p].get("router_cpu_us_per_batch") is not None]
    sc = [c[p].get("router_syscalls_per_batch") for _, _, c, _ in items if c[p].get("router_syscalls_per_batch") is not None]
    print(f"| {stack} | {callers} | {mode} | {p0:.0%} | {pp:.0%} | {fmt(statistics.median(us) if us else None, 1)} | {fmt(statistics.median(sc) if sc else None, 1)} |")
