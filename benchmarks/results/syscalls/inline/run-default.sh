#!/usr/bin/env bash
# The default router after inline I/O was turned off by default (the writer woken on the reading thread stays): three
# rounds alternating with the router before (c54c27d), beside NATS, as ./run.sh (build of the commit after 56515fe
# copied to /tmp/perfdef/router).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$here/../alternate.sh" /tmp/perfnew/load /tmp/perfbase/router "$here/before-2" /tmp/perfnew/load /tmp/perfdef/router "$here/default"
