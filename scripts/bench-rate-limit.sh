#!/usr/bin/env bash
# A credential's rate limit, measured end to end: a private RabbitMQ, the mock APNs and one worker whose
# team-one credential has rate_limit RATE (default 2000/s, fleet_size 1); JOBS jobs (default 75,000)
# queued first; the mock's accepted count read after a 5 s warm-up and again SECONDS later (default
# 30). Prints the measured rate and its ratio to the limit. Figures only, never pass/fail.
#   scripts/bench-rate-limit.sh [rate] [seconds] [jobs]
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-2000}
seconds=${2:-30}
jobs=${3:-75000}
port=${APNS_RABBITMQ_PORT:-5673}
out=.scratch/bench-rate-limit
mkdir -p "$out"
chmod 600 Tests/Fixtures/keys/*.p8 Tests/Fixtures/tls/client.p12 Tests/Fixtures/tls/client.key

swift build -c release --static-swift-stdlib --product apns-worker > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
swift build -c release --static-swift-stdlib --product mock-apns >> "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
bin=.build/release

pids=()
started_broker=false
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if $started_broker; then scripts/rabbitmq.sh forget > /dev/null; fi
}
trap cleanup EXIT
if ! scripts/rabbitmq.sh status > /dev/null 2>&1; then scripts/rabbitmq.sh start > /dev/null; started_broker=true; fi

mock_port=2297
"$bin/mock-apns" --port "$mock_port" > "$out/mock.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do grep -q "listening" "$out/mock.log" && break; sleep 0.1; done
stats() {
  curl -s --http2 --cacert Tests/Fixtures/tls/ca.pem "https://localhost:$mock_port/_mock/stats" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["accepted"])'
}

export APNS_WORKER__AMQP__URLS="[amqp://guest:guest@127.0.0.1:$port/]"
export APNS_WORKER__APNS__ENDPOINT="localhost:$mock_port"
export APNS_WORKER__CREDENTIALS__0__RATE_LIMIT=$rate
export APNS_WORKER__WORKER__FLEET_SIZE=1
export APNS_WORKER__WORKER__NAME=bench-rate-limit
export APNS_WORKER__TOPOLOGY__JOBS_QUEUE=bench.rate.jobs
export APNS_WORKER__TOPOLOGY__JOBS_EXCHANGE=bench.rate.jobs
export APNS_WORKER__TOPOLOGY__URGENT_QUEUE=bench.rate.jobs.urgent
export APNS_WORKER__TOPOLOGY__RESULTS_QUEUE=bench.rate.results
export APNS_WORKER__TOPOLOGY__RESULTS_EXCHANGE=bench.rate.results
export APNS_WORKER__METRICS__PORT=9391
export APNS_WORKER__LOG__LEVEL=warning
config=config/worker.local.yaml

"$bin/apns-worker" declare --config "$config" > /dev/null
python3 - "$jobs" > "$out/jobs.jsonl" <<'PY'
import json, sys
for i in range(int(sys.argv[1])):
    print(json.dumps({"id": f"rate-{i}", "device_token": f"{i:064x}", "topic": "com.example.app", "payload": {"aps": {"alert": "hi"}}}))
PY
"$bin/apns-worker" publish --config "$config" "$out/jobs.jsonl" > "$out/publish.log"
"$bin/apns-worker" run --config "$config" > "$out/worker.log" 2>&1 &
pids+=($!)
sleep 5
first=$(stats)
sleep "$seconds"
last=$(stats)
python3 - "$first" "$last" "$seconds" "$rate" <<'PY'
import sys
first, last, seconds, rate = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
measured = (last - first) / seconds
print(f"rate_limit {rate:.0f}/s: {last - first} notifications accepted in {seconds:.0f} s = {measured:.0f}/s, {measured / rate:.3f} of the limit")
PY
# Leave nothing behind for the next run: the worker stops, then the run's queues go.
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true
for queue in bench.rate.jobs bench.rate.jobs.urgent bench.rate.results; do scripts/rabbitmq.sh ctl delete_queue "$queue" > /dev/null 2>&1 || true; done
