#!/usr/bin/env python3
"""Summarizes run-readahead.sh's JSON files: values/s per run, and the router's share of the direct speed."""
import glob, json, os, re, statistics, sys

folder = sys.argv[1]
rows = {}
for path in sorted(glob.glob(os.path.join(folder, "r*-*-c*.json"))):
    m = re.match(r"r(\d+)-(on|off)-c(\d+)\.json", os.path.basename(path))
    round_, mode, callers = int(m.group(1)), m.group(2), int(m.group(3))
    runs = json.load(open(path))["streaming"]["runs"]
    speed = {(r["path"], r["prefetch"]): r["values_per_second"] for r in runs}
    bad = [r["problem"] for r in runs if r["problem"]]
    rows.setdefault((callers, mode), []).append((round_, speed, bad))

print("| callers | read-ahead | round | direct p0 | router p0 | router/direct p0 | direct p64 | router p64 | router/direct p64 | problems |")
print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
for (callers, mode), items in sorted(rows.items()):
    for round_, s, bad in items:
        p0 = s[("router", 0)] / s[("direct", 0)]
        p64 = s[("router", 64)] / s[("direct", 64)]
        print(f"| {callers} | {mode} | {round_} | {s[('direct', 0)]:,} | {s[('router', 0)]:,} | {p0:.0%} | {s[('direct', 64)]:,} | {s[('router', 64)]:,} | {p64:.0%} | {'; '.join(bad) or 'none'} |")
print()
print("| callers | read-ahead | median router/direct, prefetch off | median router/direct, prefetch 64 |")
print("| ---: | --- | ---: | ---: |")
for (callers, mode), items in sorted(rows.items()):
    p0 = statistics.median(s[("router", 0)] / s[("direct", 0)] for _, s, _ in items)
    p64 = statistics.median(s[("router", 64)] / s[("direct", 64)] for _, s, _ in items)
    print(f"| {callers} | {mode} | {p0:.0%} | {p64:.0%} |")
