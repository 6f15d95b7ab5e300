#!/usr/bin/env bash
# `make bench`: every benchmark, figures only (never pass/fail). Writes docs/benchmarks/*.json, the
# PNG plots, and regenerates docs/benchmarks.md. Takes about 20 minutes on 2 cores.
#   JOBS=200000 CLIENT_COUNT=200000 scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Plots need matplotlib from Debian (for /usr/bin/python3), and system calls strace; only the
# benchmark needs them.
for package in python3-matplotlib strace; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" > /dev/null
  fi
done
scripts/rabbitmq.sh start
trap 'scripts/rabbitmq.sh forget' EXIT
eval "$(scripts/rabbitmq.sh env)"
# Built as the image builds the worker (docker/Dockerfile). One product at a time: with the Swift
# runtime linked statically there is no swift-testing, which the test targets' support library imports.
for product in apns-bench apns-worker mock-apns; do
  swift build -c release --static-swift-stdlib --product "$product"
done
out=docs/benchmarks
mkdir -p "$out"
echo "== provider tokens"
.build/release/apns-bench jwt | tee "$out/jwt.txt"
echo "== log redaction, per logged line"
.build/release/apns-bench redact | tee "$out/redact.txt"
echo "== the APNs client against h2load"
.build/release/apns-bench client --count "${CLIENT_COUNT:-200000}" --rounds 3 --output "$out" | tee "$out/client.txt"
echo "== the AMQP client against bare rabbitmq-c"
.build/release/apns-bench amqp --count "${AMQP_JOBS:-100000}" --rounds 5 | tee "$out/amqp.txt"
echo "== the worker end to end"
.build/release/apns-bench worker --count "${JOBS:-200000}" --output "$out" | tee "$out/worker.txt"
echo "== a worker on refused jobs, logging at info"
.build/release/apns-bench malformed | tee "$out/malformed.txt"
echo "== multicast jobs: 1, 100 and 1,000 tokens per job; memory; single jobs behind large multicasts"
.build/release/apns-bench multicast --count "${MULTICAST_NOTIFICATIONS:-200000}" --rounds 3 | tee "$out/multicast.txt"
echo "== two teams on one worker: team B's latency alone and behind team A's slow backlog"
.build/release/apns-bench shares | tee "$out/shares.txt"
echo "== where the worker's CPU goes (perf)"
.build/release/apns-bench profile --count "${PROFILE_JOBS:-250000}" --output "$out" | tee "$out/profile.txt"
echo "== a credential's rate limit (2,000/s) held over 30 s"
scripts/bench-rate-limit.sh 2000 30 | tee "$out/rate-limit.txt"
echo "== one jobs queue against three partitions, on a three-node cluster"
scripts/rabbitmq.sh forget
trap 'scripts/rabbitmq-cluster.sh forget; scripts/rabbitmq.sh forget' EXIT
scripts/rabbitmq-cluster.sh fresh
.build/release/apns-bench partitions --count "${PARTITION_JOBS:-60000}" --rounds 3 | tee "$out/partitions.txt"
scripts/rabbitmq-cluster.sh forget
/usr/bin/python3 scripts/plot-bench.py "$out"
/usr/bin/python3 scripts/write-benchmarks-doc.py "$out" > docs/benchmarks.md
echo "docs/benchmarks.md regenerated"
