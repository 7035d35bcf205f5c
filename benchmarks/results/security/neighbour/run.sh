#!/usr/bin/env bash
# A quota refusal while other identities are served at full speed: one router process (the standalone router as users
# run it) with security.json, an echo provider and 10 closed-loop raw callers of identity "web" (no quota), alone and
# then beside a flood of 4 connections x 64 calls in flight from identity "noisy" (CallsPerSecond 200, Burst 200), which
# is refused -32015 with retry_after_ms above its rate; 3 rounds, each phase 10 s. Writes neighbour.json, table.md and
# uptime.txt into this folder.
# Usage: benchmarks/results/security/neighbour/run.sh [extra load generator options, e.g. --duration 3 --rounds 1]
set -euo pipefail
cd "$(dirname "$0")/../../../.."
out=benchmarks/results/security/neighbour
extra=("$@")
dotnet build -c Release benchmarks/JsonRpc.LoadTest >/dev/null
dotnet build -c Release src/JsonRpc.Router >/dev/null
uptime | tee -a "$out/uptime.txt"
dotnet benchmarks/JsonRpc.LoadTest/bin/Release/net10.0/JsonRpc.LoadTest.dll \
  --router src/JsonRpc.Router/bin/Release/net10.0/JsonRpc.Router.dll --security-file "$out/security.json" \
  --token web-secret --flood-token noisy-secret --flood-connections 4 --flood-window 64 --rounds 3 \
  --connections 10 --duration 10 --warmup 5 "${extra[@]}" --json "$out/neighbour.json"
uptime | tee -a "$out/uptime.txt"
dotnet benchmarks/JsonRpc.LoadTest/bin/Release/net10.0/JsonRpc.LoadTest.dll --table "$out" > "$out/table.md"
cat "$out/table.md"
