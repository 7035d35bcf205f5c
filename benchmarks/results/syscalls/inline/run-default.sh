#!/usr/bin/env bash
# The default router after inline I/O was turned off by default (the writer woken on the reading thread stays): three
# rounds alternating with the router before (c54c27d), beside NATS, as ./run.sh (build of the commit after 56515fe
# copied to /tmp/perfdef/router).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for i in 1 2 3; do
  FIRST=$i LOAD=/tmp/perfnew/load/JsonRpc.LoadTest.dll ROUTER=/tmp/perfbase/router/JsonRpc.Router.dll "$here/../run.sh" "$here/before-2" 1
  FIRST=$i LOAD=/tmp/perfnew/load/JsonRpc.LoadTest.dll ROUTER=/tmp/perfdef/router/JsonRpc.Router.dll "$here/../run.sh" "$here/default" 1
done
