#!/usr/bin/env bash
# Before and after one change to JsonRpcClient, alternating within each round: the same three workloads as ../run.sh,
# raw callers and JsonRpcClient callers against the standalone router (a fresh process per run), no peer.
# Usage: BEFORE=dir AFTER=dir run.sh ROUNDS, where each dir holds load/ (JsonRpc.LoadTest build) and router/ (JsonRpc.Router build).
set -euo pipefail
cd "$(dirname "$0")"
rounds=${1:-3}
for round in $(seq 1 "$rounds"); do
  uptime | tee -a uptime.txt
  for build in before after; do
    dir=$([ $build = before ] && echo "$BEFORE" || echo "$AFTER")
    mkdir -p $build
    load=(dotnet "$dir/load/JsonRpc.LoadTest.dll" --router "$dir/router/JsonRpc.Router.dll" --caller both)
    "${load[@]}" --mode pipelined --window 64 --connections 10 --payload 50 --json "$build/r$round-pipelined-w64-c10-50B.json" | grep -vE '^\s*\['
    "${load[@]}" --mode closed --connections 10 --payload 50 --json "$build/r$round-closed-c10-50B.json" | grep -vE '^\s*\['
    "${load[@]}" --mode closed --connections 50 --payload 102400 --json "$build/r$round-closed-c50-100KB.json" | grep -vE '^\s*\['
  done
done
uptime | tee -a uptime.txt
