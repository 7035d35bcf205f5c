#!/usr/bin/env bash
# The router's read-ahead for prefetching streams (issue 21): the load generator's streaming case, each invocation
# running the callers against the generator directly and through the standalone router (prefetch off, then 64), with
# the router's stream_read_ahead on and off in alternating invocations, for 1 and 4 callers. Each invocation runs the
# stacks in STACK (--streaming-stack: streamjsonrpc, ours or both; default both) and reports, for the routed runs, the
# router process's CPU us and syscalls per value and per batch (perf for the syscalls).
#
# MODES="on" runs read-ahead on only (the router's default).
#
# Usage: [STACK=both] [MODES="on off"] benchmarks/results/streaming/run-readahead.sh FOLDER [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=$1; rounds=${2:-2}; stack=${STACK:-both}; modes=${MODES:-on off}
dotnet build -c Release benchmarks/JsonRpc.LoadTest >/dev/null
dotnet build -c Release src/JsonRpc.Router >/dev/null
load=benchmarks/JsonRpc.LoadTest/bin/Release/net10.0/JsonRpc.LoadTest.dll
router=src/JsonRpc.Router/bin/Release/net10.0/JsonRpc.Router.dll
mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
  for c in 1 4; do
    uptime | tee -a "$out/uptime.txt"
    for mode in $modes; do
      flag=$([ "$mode" = on ] && echo true || echo false)
      dotnet "$load" --streaming --streaming-stack "$stack" --router "$router" --router-env JsonRpcRouter__stream_read_ahead=$flag \
        --warmup 3 --duration 8 --connections "$c" --json "$out/r$round-$mode-c$c.json" | grep -vE '^\s*\['
    done
  done
done
uptime | tee -a "$out/uptime.txt"
