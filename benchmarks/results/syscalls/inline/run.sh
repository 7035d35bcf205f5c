#!/usr/bin/env bash
# Inline I/O, before and after, beside NATS: three rounds, each running the three workloads of issue 23 with the router
# of main before inline I/O (c54c27d) and with it (56515fe), raw and JsonRpcClient callers, and a fresh nats-server with
# NATS.Net callers, through the parent folder's run.sh (so NATS runs in both halves of every round).
# Builds copied aside first, so that each half is one build:
#   git worktree add /tmp/wt-before c54c27d && (cd /tmp/wt-before && dotnet build -c Release src/JsonRpc.Router)
#   cp -r .../src/JsonRpc.Router/bin/Release/net10.0 /tmp/perfbase/router  (and /tmp/perfnew/router from 56515fe)
#   cp -r benchmarks/JsonRpc.LoadTest/bin/Release/net10.0 /tmp/perfnew/load  (the same load generator for both)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$here/../alternate.sh" /tmp/perfnew/load /tmp/perfbase/router "$here/before" /tmp/perfnew/load /tmp/perfnew/router "$here/after"
