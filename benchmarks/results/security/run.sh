#!/usr/bin/env bash
# What a security configuration costs a routed call: the standalone router as users run it (a fresh process per run),
# alternately with no security configuration and with rules-100.json (one identity whose permissions hold 100 rules:
# literal names, `team.*` and `svc.>` patterns, denies; its callers and provider authenticate with its token), three
# rounds, JsonRpcClient callers, closed loop (10 x 50 B) and 64 in flight (10 x 50 B).
# Usage: benchmarks/results/security/run.sh [extra load generator options, e.g. --duration 5]
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=benchmarks/results/security/load
extra=("$@")
dotnet build -c Release benchmarks/JsonRpc.LoadTest >/dev/null
dotnet build -c Release src/JsonRpc.Router >/dev/null
jit=src/JsonRpc.Router/bin/Release/net10.0/JsonRpc.Router.dll
load() { dotnet benchmarks/JsonRpc.LoadTest/bin/Release/net10.0/JsonRpc.LoadTest.dll --router "$jit" --caller client "$@" "${extra[@]}"; }
uptime | tee -a "$out/uptime.txt"
for round in 1 2 3; do
  for workload in closed pipelined; do
    load --mode "$workload" --json "$out/$workload-none-$round.json" >/dev/null
    load --mode "$workload" --token load-secret --router-env "JsonRpcRouter__SecurityFile=$PWD/benchmarks/results/security/rules-100.json" \
      --json "$out/$workload-rules100-$round.json" >/dev/null
  done
done
uptime | tee -a "$out/uptime.txt"
dotnet benchmarks/JsonRpc.LoadTest/bin/Release/net10.0/JsonRpc.LoadTest.dll --table "$out" > "$out/table.md"
cat "$out/table.md"
