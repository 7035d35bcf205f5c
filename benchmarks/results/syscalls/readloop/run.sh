#!/usr/bin/env bash
# The read loop that runs a read's batch before it reads again (9bf094c) and the hand-written call envelope (7d09393),
# before (bf08701) and after, beside NATS: three rounds through ../alternate.sh, each half with a fresh nats-server, the
# same router build (bf08701) with inline I/O in both halves. Builds copied aside first, so that each half is one build:
#   git worktree add /tmp/wt-base bf08701 && (cd /tmp/wt-base && dotnet build -c Release benchmarks/JsonRpc.LoadTest src/JsonRpc.Router)
#   cp -r /tmp/wt-base/benchmarks/JsonRpc.LoadTest/bin/Release/net10.0 /tmp/perfbase/load
#   cp -r /tmp/wt-base/src/JsonRpc.Router/bin/Release/net10.0 /tmp/perfbase/router
#   cp -r benchmarks/JsonRpc.LoadTest/bin/Release/net10.0 /tmp/perfnew3      (7d09393's load generator)
# OUT names the folder pair (default: this folder); AFTER the "after" load generator. final/ is d338ee8's (the review
# mends): OUT=final AFTER=/tmp/perfnew4 ./run.sh; grown/ is 7221edf's (the batch that grows to 1,024 items):
# OUT=grown AFTER=/tmp/perfnew5 ./run.sh (each AFTER folder a copy of that commit's LoadTest Release build).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$here/${OUT:-.}
"$here/../alternate.sh" /tmp/perfbase/load /tmp/perfbase/router "$out/before" "${AFTER:-/tmp/perfnew3}" /tmp/perfbase/router "$out/after" --router-env JsonRpcRouter__InlineIo=true "$@"
