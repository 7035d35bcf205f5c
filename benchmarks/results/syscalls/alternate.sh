#!/usr/bin/env bash
# Three rounds alternating two builds through ./run.sh (so a fresh nats-server runs beside each half of every round):
#   alternate.sh BEFORE_LOAD_DIR BEFORE_ROUTER_DIR BEFORE_OUT AFTER_LOAD_DIR AFTER_ROUTER_DIR AFTER_OUT [load generator options]
# Each *_DIR is a copied Release build folder (…/JsonRpc.LoadTest.dll, …/JsonRpc.Router.dll inside); DRY=1 prints the
# runs instead of making them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
before_load=$1; before_router=$2; before_out=$3; after_load=$4; after_router=$5; after_out=$6; shift 6
run=("$here/run.sh")
[ -n "${DRY:-}" ] && run=(echo "$here/run.sh")
for i in 1 2 3; do
  FIRST=$i LOAD=$before_load/JsonRpc.LoadTest.dll ROUTER=$before_router/JsonRpc.Router.dll "${run[@]}" "$before_out" 1 "$@"
  FIRST=$i LOAD=$after_load/JsonRpc.LoadTest.dll ROUTER=$after_router/JsonRpc.Router.dll "${run[@]}" "$after_out" 1 "$@"
done
