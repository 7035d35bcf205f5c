#!/usr/bin/env bash
# Read batches in the client, before and after, beside NATS: three rounds, each running the three workloads of issue 23
# with the load generator (so the JsonRpcClient library) of main before read batches (2195887) and with them (f4491d1),
# against the same standalone router build (2195887, default settings), and a fresh nats-server with NATS.Net callers,
# through the parent folder's run.sh (so NATS runs in both halves of every round).
# Builds copied aside first, so that each half is one build:
#   git worktree add /tmp/wt-base 2195887 && (cd /tmp/wt-base && dotnet build -c Release benchmarks/JsonRpc.LoadTest src/JsonRpc.Router)
#   cp -r /tmp/wt-base/benchmarks/JsonRpc.LoadTest/bin/Release/net10.0 /tmp/perfbase/load   (and /tmp/perfnew/load from f4491d1)
#   cp -r /tmp/wt-base/src/JsonRpc.Router/bin/Release/net10.0 /tmp/perfbase/router        (the same router for both)
# Extra arguments go to every run (for example --router-env JsonRpcRouter__InlineIo=true), OUT names the folder pair,
# AFTER the folder of the "after" load generator (default /tmp/perfnew/load; inline-send/ used 501ddb4's, built the same way).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here}
"$here/../alternate.sh" /tmp/perfbase/load /tmp/perfbase/router "$out/before" "${AFTER:-/tmp/perfnew/load}" /tmp/perfbase/router "$out/after" "$@"
