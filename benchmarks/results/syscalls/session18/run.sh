#!/usr/bin/env bash
# Session 18: session 17's protocol (../inline-callers/run.sh: three rounds, the callers' process by default and with
# inline socket completions alternating within each round, raw and JsonRpcClient callers against the router, NATS.Net
# callers against a fresh nats-server) after JsonRpcClient callers began taking results into a reused buffer and every
# lane reading the clock once per call. Results: default/ and inline/ here, summary.md.
#   benchmarks/results/syscalls/session18/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here exec "$here/../inline-callers/run.sh"
