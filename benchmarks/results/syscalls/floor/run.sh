#!/usr/bin/env bash
# The floor of the closed loop on this VM: the load generator's raw callers against its raw echo provider (no JSON-RPC
# library on either end: newline-delimited lines sliced in place, the echo checked in place), the standalone router in
# its own process, and a fresh nats-server with NATS.Net callers beside it in the same invocation; three rounds.
#   benchmarks/results/syscalls/floor/run.sh [OUT]   (LOAD=…/JsonRpc.LoadTest.dll ROUTER=…/JsonRpc.Router.dll to use copies)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../../.."
out=${1:-$here}
load=${LOAD:-benchmarks/JsonRpc.LoadTest/bin/Release/net10.0/JsonRpc.LoadTest.dll}
router=${ROUTER:-src/JsonRpc.Router/bin/Release/net10.0/JsonRpc.Router.dll}
for round in 1 2 3; do
  uptime | tee -a "$out/uptime.txt"
  dotnet "$load" --router "$router" --caller raw --provider raw --peer nats --mode closed --connections 10 --payload 50 \
    --router-env JsonRpcRouter__InlineIo=true --json "$out/r$round-closed-c10-50B.json" | grep -vE '^\s*\['
done
uptime | tee -a "$out/uptime.txt"
dotnet "$load" --table "$out" >"$out/table.md"
