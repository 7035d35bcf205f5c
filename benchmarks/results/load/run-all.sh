#!/usr/bin/env bash
# Re-makes every load result in this folder with the load generator (benchmarks/JsonRpc.LoadTest):
#
#   *.json, sweep-*, peers.png  the standalone router as users run it, a process of its own (a fresh one per run),
#                               loaded from the load generator's process, beside NATS (nats-server from PATH, NATS.Net
#                               callers, a queue-group echo responder) on the routed workloads, and beside StreamJsonRpc
#                               (a server in the load generator's process, as our direct mode is) on the direct ones
#   aot/                        the same routed workloads on the native AOT build of the router
#   gc/                         the router's GC settings compared: the routed workloads and the stalled client
#   profile/                    where the router's time goes (perf, when it is installed)
#
# The in-process figures of earlier sessions are in in-process/ (not re-made here). Needs nats-server on PATH
# (Debian: apt-get install nats-server) and, for the native build, clang and zlib (apt-get install clang zlib1g-dev).
# Usage: benchmarks/results/load/run-all.sh [extra options for every run, e.g. --duration 5]
#        SECTIONS="gc headline" benchmarks/results/load/run-all.sh     (a part only: gc headline direct aot sweep
#                                                                      profile tables; all of them by default)
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=benchmarks/results/load
extra=("$@")

dotnet build -c Release benchmarks/JsonRpc.LoadTest >/dev/null
dotnet build -c Release src/JsonRpc.Router >/dev/null
dotnet publish src/JsonRpc.Router -c Release -r linux-x64 -p:PublishAot=true >/dev/null
jit=src/JsonRpc.Router/bin/Release/net10.0/JsonRpc.Router.dll
native=src/JsonRpc.Router/bin/Release/net10.0/linux-x64/publish/JsonRpc.Router
load() { dotnet benchmarks/JsonRpc.LoadTest/bin/Release/net10.0/JsonRpc.LoadTest.dll "$@" "${extra[@]}"; }
mkdir -p "$out/aot" "$out/gc" "$out/profile"
sections=" ${SECTIONS:-gc headline direct aot sweep profile tables} "
want() { [[ "$sections" == *" $1 "* ]]; }

uptime | tee -a "$out/uptime.txt"

# GC settings: the routed workloads (JsonRpcClient callers) and the stalled client, per setting. The environment
# overrides what the router's runtimeconfig says, so every setting is measured whatever the default is.
if want gc; then
declare -A gc=(
  [server]="DOTNET_gcServer=1"
  [server-no-datas]="DOTNET_gcServer=1 DOTNET_GCDynamicAdaptationMode=0"
  [workstation]="DOTNET_gcServer=0"
  [workstation-conserve]="DOTNET_gcServer=0 DOTNET_GCConserveMemory=5"
)
for name in server server-no-datas workstation workstation-conserve; do
  env=()
  for setting in ${gc[$name]}; do env+=(--router-env "$setting"); done
  load --router "$jit" "${env[@]}" --caller client --mode closed --connections 10 --payload 50 --json "$out/gc/$name-closed-c10-50B.json"
  load --router "$jit" "${env[@]}" --caller client --mode pipelined --window 64 --connections 10 --payload 50 --json "$out/gc/$name-pipelined-w64-c10-50B.json"
  load --router "$jit" "${env[@]}" --caller client --mode closed --connections 50 --payload 102400 --json "$out/gc/$name-closed-c50-100KB.json"
  load --router "$jit" "${env[@]}" --stalled-client --stalled-method echo --payload 50 --warmup 2 --duration 15 --json "$out/gc/$name-stalled-echo.json"
  load --router "$jit" "${env[@]}" --stalled-client --stalled-method keepAlive --payload 50 --warmup 2 --duration 15 --json "$out/gc/$name-stalled-keepalive.json"
done
fi

# The load set on the standalone router (JIT), as users run it, each routed workload with NATS in the same invocation.
if want headline; then
load --router "$jit" --caller both --peer nats --mode closed --connections 10 --payload 50 --json "$out/closed-c10-50B.json"
load --router "$jit" --caller both --peer nats --mode pipelined --window 64 --connections 10 --payload 50 --json "$out/pipelined-w64-c10-50B.json"
load --router "$jit" --caller both --peer nats --mode closed --connections 50 --payload 102400 --json "$out/closed-c50-100KB.json"
fi

# Direct mode (the router serves echo itself, in the load generator's process) beside StreamJsonRpc's server there.
if want direct; then
load --direct --caller both --peer streamjsonrpc --mode closed --connections 10 --payload 50 --json "$out/direct-closed-c10-50B.json"
load --direct --caller both --peer streamjsonrpc --mode pipelined --window 64 --connections 10 --payload 50 --json "$out/direct-pipelined-w64-c10-50B.json"
fi

# The same routed workloads, and the stalled client, on the native AOT router.
if want aot; then
load --router "$native" --caller both --mode closed --connections 10 --payload 50 --json "$out/aot/closed-c10-50B.json"
load --router "$native" --caller both --mode pipelined --window 64 --connections 10 --payload 50 --json "$out/aot/pipelined-w64-c10-50B.json"
load --router "$native" --caller both --mode closed --connections 50 --payload 102400 --json "$out/aot/closed-c50-100KB.json"
load --router "$native" --stalled-client --stalled-method keepAlive --payload 50 --warmup 2 --duration 15 --json "$out/aot/stalled-keepalive.json"
fi

# Calls/s and p99 against connections, ours beside NATS.
if want sweep; then
load --router "$jit" --caller client --peer nats --payload 50 --sweep 1,10,100 --plot "$out/sweep-closed-50B.png"
fi

# Where the router's time goes on the routed workloads (runs of their own: profiling slows the process it samples).
# perf samples the router's CPU; DOTNET_PerfMapEnabled=1 makes the runtime write the JIT-compiled methods' names where
# perf finds them (with W^X off, so that JIT code is not behind a double mapping perf cannot name). Sampling starts
# 8 s into the run (3 s into the measured window, JIT tiering mostly done) for 6 s. The reports keep the top of each:
# self time by symbol, and by library.
if want profile && command -v perf >/dev/null 2>&1; then
  for workload in "closed-c10-50B:--mode closed --connections 10 --payload 50" "pipelined-w64-c10-50B:--mode pipelined --window 64 --connections 10 --payload 50" "closed-c50-100KB:--mode closed --connections 50 --payload 102400"; do
    name=${workload%%:*}
    log=$(mktemp)
    DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 dotnet "$jit" --port 0 >"$log" 2>&1 &
    router=$!
    port=""
    for _ in $(seq 1 600); do
      port=$(grep -oE 'listening on tcp://127\.0\.0\.1:[0-9]+' "$log" | grep -oE '[0-9]+$' || true)
      [ -n "$port" ] && break
      sleep 0.1
    done
    # shellcheck disable=SC2086
    load --connect "127.0.0.1:$port" --router-pid "$router" --caller client ${workload#*:} --json "$out/profile/$name.json" >/dev/null &
    loading=$!
    sleep 8
    perf record -F 999 -g -p "$router" -o "$out/profile/$name.perf.data" -- sleep 6 >/dev/null 2>&1 || true
    wait "$loading" || true
    kill "$router" && wait "$router" || true
    perf report -i "$out/profile/$name.perf.data" --stdio --no-children -g none --sort symbol --percent-limit 0.5 2>/dev/null \
      | grep -E '^ +[0-9]' | sed -E 's/ +- +- *$//; s/ {2,}/  /g' | head -50 >"$out/profile/$name-symbols.txt" || true
    perf report -i "$out/profile/$name.perf.data" --stdio --no-children -g none --sort dso 2>/dev/null \
      | grep -E '^ +[0-9]' | sed -E 's/ {2,}/  /g' | head -15 >"$out/profile/$name-libraries.txt" || true
    rm -f "$out/profile/$name.perf.data" "$out/profile/$name.perf.data.old" "$log"
  done
fi

uptime | tee -a "$out/uptime.txt"

# The tables and the peer chart.
if want tables; then
load --table "$out" --plot "$out/peers.png" >"$out/table.md"
load --table "$out/aot" >"$out/aot/table.md"
load --table "$out/gc" >"$out/gc/table.md"
fi
