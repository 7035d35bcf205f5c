#!/usr/bin/env bash
# A/B: the standalone router alone vs the same router joined to an idle two-node cluster, alternating.
set -uo pipefail
cd /work/main
R=src/JsonRpc.Router/bin/Release/net10.0/JsonRpc.Router.dll
L="dotnet benchmarks/JsonRpc.LoadTest/bin/Release/net10.0/JsonRpc.LoadTest.dll"
out=${OUT:-/tmp/ab}; mkdir -p $out
nats-server -a 127.0.0.1 -p 14222 >/dev/null 2>&1 & natspid=$!
sleep 0.5
for round in 1 2; do
  for mode in alone cluster; do
    if [ $mode = cluster ]; then
      dotnet $R --port 19002 --nats_url nats://127.0.0.1:14222 --node_name b >/dev/null 2>&1 & b=$!
      dotnet $R --port 19001 --nats_url nats://127.0.0.1:14222 --node_name a >/tmp/ab-a.log 2>&1 & a=$!
    else
      dotnet $R --port 19001 >/tmp/ab-a.log 2>&1 & a=$!; b=
    fi
    for _ in $(seq 1 100); do grep -q 'listening on tcp' /tmp/ab-a.log && break; sleep 0.1; done
    sleep 1
    $L --connect 127.0.0.1:19001 --router-pid $a --caller client --mode pipelined --window 64 --connections 10 --payload 50 --warmup 3 --duration 8 --json $out/$mode-$round.json | grep -E 'calls/s|p99' | tail -2
    echo "$mode $round"
    kill $a $b; wait $a $b 2>/dev/null
  done
done
kill $natspid
