#!/usr/bin/env bash
# The callers' process with and without inline socket completions (the load generator's --inline-io), three rounds,
# the two settings alternating within each round on each of issue 23's workloads. Every invocation runs the raw and
# JsonRpcClient callers against the standalone router (its own process, inline I/O as in the folders beside this one)
# and NATS.Net callers against a fresh nats-server, all from the same load generator process, so both systems' callers
# get the same setting. Results: default/ and inline/ (summarize with ../summarize.py default inline).
#   benchmarks/results/syscalls/inline-callers/run.sh   (LOAD=…/JsonRpc.LoadTest.dll ROUTER=…/JsonRpc.Router.dll to use copies,
#   OUT=folder to write the results elsewhere: later sessions' runs of the same protocol)
set -euo pipefail
script=$(cd "$(dirname "$0")" && pwd)
here=$(mkdir -p "${OUT:-$script}" && cd "${OUT:-$script}" && pwd)
cd "$script/../../../.."
load=${LOAD:-benchmarks/JsonRpc.LoadTest/bin/Release/net10.0/JsonRpc.LoadTest.dll}
router=${ROUTER:-src/JsonRpc.Router/bin/Release/net10.0/JsonRpc.Router.dll}
mkdir -p "$here/default" "$here/inline"
workloads=("closed-c10-50B:--mode closed --connections 10 --payload 50"
           "pipelined-w64-c10-50B:--mode pipelined --window 64 --connections 10 --payload 50"
           "closed-c50-100KB:--mode closed --connections 50 --payload 102400")
for round in 1 2 3; do
  for workload in "${workloads[@]}"; do
    name=${workload%%:*}; read -r -a args <<<"${workload#*:}"
    for setting in default inline; do
      flag=(); [ "$setting" = inline ] && flag=(--inline-io)
      uptime | tee -a "$here/$setting/uptime.txt"
      dotnet "$load" --router "$router" --router-env JsonRpcRouter__InlineIo=true --caller both --peer nats "${args[@]}" "${flag[@]}" \
        --json "$here/$setting/r$round-$name.json" | grep -vE '^\s*\['
    done
  done
done
for setting in default inline; do dotnet "$load" --table "$here/$setting" >"$here/$setting/table.md"; done
python3 "$script/../summarize.py" "$here/default" "$here/inline" >"$here/summary.md"
