#!/usr/bin/env bash
# What was tried (raw callers, one run each, alternating): block sizes on 50 x 100 KB, with a router build that reads
# its block size from EXPERIMENT_BLOCK_KB (0 = Kestrel's own 4 KB pool; that one-line change to Program.cs is not
# committed), and two runtime settings on the closed loop 10 x 50 B against the committed router.
# LOAD=... EXPERIMENT_ROUTER=... ROUTER=... name the builds.
set -euo pipefail
cd "$(dirname "$0")/../../../.."
out=benchmarks/results/syscalls/tried
run() { name=$1; shift; dotnet "$LOAD" --caller raw "$@" --json "$out/$name.json" | grep -vE '^\s*\[' > "$out/$name.txt"; }
uptime | tee -a "$out/uptime.txt"
for kb in 0 64 128 256; do
  run "block-${kb}k-closed-c50-100KB" --router "$EXPERIMENT_ROUTER" --router-env "EXPERIMENT_BLOCK_KB=$kb" --mode closed --connections 50 --payload 102400
done
for round in 1 2; do
  run "default-r$round-closed-c10-50B" --router "$ROUTER" --mode closed --connections 10 --payload 50
  run "spin0-r$round-closed-c10-50B" --router "$ROUTER" --router-env DOTNET_ThreadPool_UnfairSemaphoreSpinLimit=0 --mode closed --connections 10 --payload 50
  run "inline-r$round-closed-c10-50B" --router "$ROUTER" --router-env DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1 --mode closed --connections 10 --payload 50
done
uptime | tee -a "$out/uptime.txt"
dotnet "$LOAD" --table "$out" > "$out/table.md"
