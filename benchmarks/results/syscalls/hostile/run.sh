#!/usr/bin/env bash
# The hostile cases of benchmarks/results/hostile/run.sh (each kind alone, then eight at once) against the router
# with its 128 KiB socket blocks: does it still bound what one connection costs? Writes one JSON report per case here.
# LOAD=... ROUTER=... measure builds copied elsewhere (default: this worktree's Release builds).
set -euo pipefail
cd "$(dirname "$0")/../../../.."
load=${LOAD:-benchmarks/JsonRpc.LoadTest/bin/Release/net10.0/JsonRpc.LoadTest.dll}
router=${ROUTER:-src/JsonRpc.Router/bin/Release/net10.0/JsonRpc.Router.dll}
out=benchmarks/results/syscalls/hostile
uptime | tee -a "$out/uptime.txt"
for kind in non-reading batch-holding slowloris oversize deep-nesting; do
  dotnet "$load" --router "$router" --hostile $kind --connections 4 --payload 100 --warmup 5 --duration 15 --grace 10 --json $out/$kind.json | grep -vE '^\s*\[' | tee $out/$kind.txt
done
dotnet "$load" --router "$router" --hostile all --hostile-count 8 --connections 4 --payload 100 --warmup 5 --duration 15 --grace 10 --json $out/eight.json | grep -vE '^\s*\[' | tee $out/eight.txt
uptime | tee -a "$out/uptime.txt"
