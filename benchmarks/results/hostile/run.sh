#!/usr/bin/env bash
# Hostile connections against the standalone router (a process of its own, its defaults): each kind alone, then eight
# at once, beside 4 innocent closed-loop callers (100 B echo calls). Writes one JSON report per case here.
set -euo pipefail
cd "$(dirname "$0")/../../.."
dotnet build -c Release src/JsonRpc.Router >/dev/null
dotnet build -c Release benchmarks/JsonRpc.LoadTest >/dev/null
L="dotnet benchmarks/JsonRpc.LoadTest/bin/Release/net10.0/JsonRpc.LoadTest.dll"
R=src/JsonRpc.Router/bin/Release/net10.0/JsonRpc.Router.dll
out=benchmarks/results/hostile
for kind in non-reading batch-holding slowloris oversize deep-nesting; do
  $L --router $R --hostile $kind --connections 4 --payload 100 --warmup 5 --duration 15 --grace 10 --json $out/$kind.json | tee $out/$kind.txt
done
$L --router $R --hostile all --hostile-count 8 --connections 4 --payload 100 --warmup 5 --duration 15 --grace 10 --json $out/eight.json | tee $out/eight.txt
# The memory budget against RSS: the same eight with max_memory at 64 MiB (what the router may hold for clients).
$L --router $R --router-env JsonRpcRouter__MaxMemory=67108864 --hostile all --hostile-count 8 --connections 4 --payload 100 --warmup 5 --duration 15 --grace 10 --json $out/eight-budget-64mib.json | tee $out/eight-budget-64mib.txt
