#!/usr/bin/env bash
# io_threads 1 (the default on 2 cores) against 2, inline, the router of 56515fe, raw and JsonRpcClient callers, two
# rounds alternating, on the small closed loop and 64 in flight (builds as in ../run.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
load=/tmp/perfnew/load/JsonRpc.LoadTest.dll; router=/tmp/perfnew/router/JsonRpc.Router.dll
for i in 1 2; do
  for t in 1 2; do
    uptime | tee -a "$here/uptime.txt"
    dotnet "$load" --router "$router" --router-env JsonRpcRouter__IoThreads=$t --caller both --mode closed --connections 10 --payload 50 --json "$here/r$i-t$t-closed-c10-50B.json" | grep -vE '^\s*\['
    dotnet "$load" --router "$router" --router-env JsonRpcRouter__IoThreads=$t --caller both --mode pipelined --window 64 --connections 10 --payload 50 --json "$here/r$i-t$t-pipelined-w64-c10-50B.json" | grep -vE '^\s*\['
  done
done
dotnet "$load" --table "$here" >"$here/table.md"
