#!/usr/bin/env bash
# Re-makes every result in this folder: the load generator (benchmarks/JsonRpc.LoadTest) against an in-process router,
# each workload once with the raw socket callers and once with JsonRpcClient callers (--caller both).
# Usage: benchmarks/results/load/run-all.sh [extra options for every run, e.g. --duration 5]
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=benchmarks/results/load
dotnet build -c Release benchmarks/JsonRpc.LoadTest >/dev/null
run() { dotnet benchmarks/JsonRpc.LoadTest/bin/Release/net10.0/JsonRpc.LoadTest.dll --caller both "$@" "${extra[@]}"; }
extra=("$@")

uptime | tee "$out/uptime.txt"
run --mode closed --connections 10 --payload 50 --json "$out/closed-c10-50B.json"
run --mode pipelined --window 64 --connections 10 --payload 50 --json "$out/pipelined-w64-c10-50B.json"
run --mode closed --connections 50 --payload 102400 --json "$out/closed-c50-100KB.json"
run --mode closed --connections 10 --payload 50 --direct --json "$out/direct-closed-c10-50B.json"
run --mode pipelined --window 64 --connections 10 --payload 50 --direct --json "$out/direct-pipelined-w64-c10-50B.json"
run --payload 50 --sweep 1,10,100 --plot "$out/sweep-closed-50B.png"
uptime | tee -a "$out/uptime.txt"
