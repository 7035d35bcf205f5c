#!/usr/bin/env bash
# Re-makes every load result in this folder with the load generator (benchmarks/JsonRpc.LoadTest):
#
#   *.json, sweep-*, peers.png  the standalone router as users run it, a process of its own (a fresh one per run),
#                               loaded from the load generator's process, beside NATS (nats-server from PATH, NATS.Net
#                               callers, a queue-group echo responder) on the routed workloads, and beside StreamJsonRpc
#                               (a server in the load generator's process, as our direct mode is) on the direct ones
#   aot/                        the same routed workloads on the native AOT build of the router
#   gc/                         the router's GC settings compared: the routed workloads and the stalled client
#   profile/                    where the router's time goes (dotnet-trace, when it is installed)
#
# The in-process figures of earlier sessions are in in-process/ (not re-made here). Needs nats-server on PATH
# (Debian: apt-get install nats-server) and, for the native build, clang and zlib (apt-get install clang zlib1g-dev).
# Usage: benchmarks/results/load/run-all.sh [extra options for every run, e.g. --duration 5]
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

uptime | tee "$out/uptime.txt"

# The load set on the standalone router (JIT), each routed workload with NATS in the same invocation.
load --router "$jit" --caller both --peer nats --mode closed --connections 10 --payload 50 --json "$out/closed-c10-50B.json"
load --router "$jit" --caller both --peer nats --mode pipelined --window 64 --connections 10 --payload 50 --json "$out/pipelined-w64-c10-50B.json"
load --router "$jit" --caller both --peer nats --mode closed --connections 50 --payload 102400 --json "$out/closed-c50-100KB.json"

# Direct mode (the router serves echo itself, in the load generator's process) beside StreamJsonRpc's server there.
load --direct --caller both --peer streamjsonrpc --mode closed --connections 10 --payload 50 --json "$out/direct-closed-c10-50B.json"
load --direct --caller both --peer streamjsonrpc --mode pipelined --window 64 --connections 10 --payload 50 --json "$out/direct-pipelined-w64-c10-50B.json"

# The same routed workloads on the native AOT router.
load --router "$native" --caller both --mode closed --connections 10 --payload 50 --json "$out/aot/closed-c10-50B.json"
load --router "$native" --caller both --mode pipelined --window 64 --connections 10 --payload 50 --json "$out/aot/pipelined-w64-c10-50B.json"
load --router "$native" --caller both --mode closed --connections 50 --payload 102400 --json "$out/aot/closed-c50-100KB.json"

# GC settings: the routed workloads (JsonRpcClient callers) and the stalled client, per setting. The environment
# overrides what the router's runtimeconfig says, so every setting is measured whatever the default is.
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
load --router "$native" --stalled-client --stalled-method keepAlive --payload 50 --warmup 2 --duration 15 --json "$out/aot/stalled-keepalive.json"

# Calls/s and p99 against connections, ours beside NATS.
load --router "$jit" --caller client --peer nats --payload 50 --sweep 1,10,100 --plot "$out/sweep-closed-50B.png"

# Where the router's time goes on the routed workloads (a separate run: tracing slows the process it traces).
if command -v dotnet-trace >/dev/null 2>&1 || [ -x "$HOME/.dotnet/tools/dotnet-trace" ]; then
  trace=$(command -v dotnet-trace || echo "$HOME/.dotnet/tools/dotnet-trace")
  for workload in "closed-c10-50B:--mode closed --connections 10 --payload 50" "pipelined-w64-c10-50B:--mode pipelined --window 64 --connections 10 --payload 50" "closed-c50-100KB:--mode closed --connections 50 --payload 102400"; do
    name=${workload%%:*}
    dotnet "$jit" --port 0 >"$out/profile/router-$name.log" 2>&1 &
    router=$!
    port=""
    for _ in $(seq 1 300); do
      port=$(grep -oE 'listening on tcp://127\.0\.0\.1:[0-9]+' "$out/profile/router-$name.log" | grep -oE '[0-9]+$' || true)
      [ -n "$port" ] && break
      sleep 0.1
    done
    # shellcheck disable=SC2086
    load --connect "127.0.0.1:$port" --router-pid "$router" --caller client ${workload#*:} --warmup 5 --duration 10 >/dev/null &
    loading=$!
    sleep 5
    "$trace" collect -p "$router" --profile cpu-sampling --duration 00:00:00:08 -o "$out/profile/$name.nettrace" >/dev/null
    wait "$loading" || true
    kill "$router" && wait "$router" || true
    "$trace" report "$out/profile/$name.nettrace" topN -n 40 --inclusive >"$out/profile/$name-inclusive.txt" 2>&1 || true
    "$trace" report "$out/profile/$name.nettrace" topN -n 40 >"$out/profile/$name-exclusive.txt" 2>&1 || true
    rm -f "$out/profile/$name.nettrace" "$out/profile/router-$name.log"
  done
fi

uptime | tee -a "$out/uptime.txt"

# The tables and the peer chart.
load --table "$out" --plot "$out/peers.png" >"$out/table.md"
load --table "$out/aot" >"$out/aot/table.md"
load --table "$out/gc" >"$out/gc/table.md"
