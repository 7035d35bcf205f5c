#!/usr/bin/env bash
# The side-by-side runs of this folder: the standalone router (a process of its own, a fresh one per run) and
# nats-server (fresh per run) on the three workloads of issue 23, JsonRpcClient and raw callers for ours, NATS.Net
# callers for NATS, each run reporting the broker's CPU and system calls per call (perf stat, as root).
#
# Usage: benchmarks/results/syscalls/run.sh FOLDER [ROUNDS] [extra load generator options]
#   LOAD=path/JsonRpc.LoadTest.dll ROUTER=path/JsonRpc.Router.dll to measure builds copied elsewhere (the defaults
#   are this worktree's Release builds, which the script makes); FIRST=N numbers the rounds from N (default 1), so that
#   rounds of two builds can alternate (see README).
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=$1; rounds=${2:-1}; shift $(( $# >= 2 ? 2 : 1 )); extra=("$@")
if [ -z "${LOAD:-}" ]; then
  dotnet build -c Release benchmarks/JsonRpc.LoadTest >/dev/null
  dotnet build -c Release src/JsonRpc.Router >/dev/null
fi
load=${LOAD:-benchmarks/JsonRpc.LoadTest/bin/Release/net10.0/JsonRpc.LoadTest.dll}
router=${ROUTER:-src/JsonRpc.Router/bin/Release/net10.0/JsonRpc.Router.dll}
mkdir -p "$out"
first=${FIRST:-1}
for round in $(seq "$first" $(( first + rounds - 1 ))); do
  uptime | tee -a "$out/uptime.txt"
  dotnet "$load" --router "$router" --caller both --peer nats --mode closed --connections 10 --payload 50 --json "$out/r$round-closed-c10-50B.json" "${extra[@]}" | grep -vE '^\s*\['
  dotnet "$load" --router "$router" --caller both --peer nats --mode pipelined --window 64 --connections 10 --payload 50 --json "$out/r$round-pipelined-w64-c10-50B.json" "${extra[@]}" | grep -vE '^\s*\['
  dotnet "$load" --router "$router" --caller both --peer nats --mode closed --connections 50 --payload 102400 --json "$out/r$round-closed-c50-100KB.json" "${extra[@]}" | grep -vE '^\s*\['
done
uptime | tee -a "$out/uptime.txt"
dotnet "$load" --table "$out" >"$out/table.md"
