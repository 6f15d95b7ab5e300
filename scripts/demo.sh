#!/usr/bin/env bash
# The main job, end to end on this machine: a private RabbitMQ, the mock APNs, a worker; a few thousand
# sample jobs with a mix of outcomes; a summary of the results; then everything it started is stopped.
#   scripts/demo.sh [number-of-jobs]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${1:-3000}
demo=.scratch/demo
mkdir -p "$demo"
config=config/worker.local.yaml
# Short retry tiers so retried jobs come back within the demo (the defaults are 5 s … 10 min).
export APNS_WORKER__TOPOLOGY__RETRY_TIERS='[1s, 2s, 4s]'
export APNS_WORKER__TOPOLOGY__RETRY_QUEUE_PREFIX='apns.demo.retry.'
export APNS_WORKER__WORKER__MAX_ATTEMPTS=4
export APNS_WORKER__LOG__LEVEL=notice

# Git does not keep file modes: give the test-only keys the private mode real keys must have.
chmod 600 Tests/Fixtures/keys/*.p8 Tests/Fixtures/tls/client.p12 Tests/Fixtures/tls/client.key

echo "== building (release)"
swift build -c release --static-swift-stdlib --product apns-worker > "$demo/build.log" 2>&1 || { tail -30 "$demo/build.log"; exit 1; }
swift build -c release --static-swift-stdlib --product mock-apns >> "$demo/build.log" 2>&1 || { tail -30 "$demo/build.log"; exit 1; }
bin=.build/release

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  scripts/rabbitmq.sh forget > /dev/null
}
trap cleanup EXIT

echo "== starting RabbitMQ and the mock APNs"
scripts/rabbitmq.sh start
# 2% of pushes get a 503 from the mock, so some jobs take the retry path.
"$bin/mock-apns" --port 2197 --faults '{"errorRate":0.02,"errorStatus":503}' > "$demo/mock.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do grep -q "listening" "$demo/mock.log" && break; sleep 0.1; done
grep "listening" "$demo/mock.log"

echo "== checking the configuration and declaring the topology"
"$bin/apns-worker" check-config --config "$config"
"$bin/apns-worker" declare --config "$config" > "$demo/declare.log"

echo "== starting a worker"
"$bin/apns-worker" run --config "$config" > "$demo/worker.log" 2>&1 &
worker=$!
pids+=("$worker")

echo "== publishing $jobs sample jobs"
python3 scripts/demo-jobs.py "$jobs" > "$demo/jobs.jsonl"
with_id=$(grep -c '"id"' "$demo/jobs.jsonl" || true)
"$bin/apns-worker" publish --config "$config" "$demo/jobs.jsonl"

echo "== waiting for $with_id results (jobs that are not JSON have no id, so no result: they are dead-lettered)"
"$bin/apns-worker" results --config "$config" --drain --expect "$with_id" --idle-timeout 30 | tee "$demo/summary.txt"

echo "== multicast: 5 jobs of 1,000 tokens each (3% dead, 1% unknown): one summary result per pass over a job"
python3 scripts/demo-jobs.py --multicast 5 1000 > "$demo/multicast.jsonl"
"$bin/apns-worker" publish --config "$config" "$demo/multicast.jsonl"
# Tokens the mock's 503s hit come back from the 1 s retry tier in a smaller job, with their own result.
"$bin/apns-worker" results --config "$config" --drain --idle-timeout 8 | grep -v "^latency\|^throughput" | tee -a "$demo/summary.txt"

echo "== broadcast channels (iOS 18 Live Activities): a channel made by hand, then a broadcast job and a list job"
channel=$("$bin/apns-worker" channels create --policy 1 --bundle-id com.example.app --endpoint localhost:2197 \
  --ca-file Tests/Fixtures/tls/ca.pem --key-file Tests/Fixtures/keys/AuthKey_TESTKEY001.p8 --key-id TESTKEY001 --team-id TEAMID0001)
echo "apns-worker channels create: $channel"
channel_id=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["channel_id"])' "$channel")
cat > "$demo/broadcast.jsonl" <<JOBS
{"id":"demo-broadcast-1","channel_id":"$channel_id","bundle_id":"com.example.app","payload":{"aps":{"timestamp":$(date +%s),"event":"update","content-state":{"home":2,"away":1}}}}
{"id":"demo-channels-list","channel_action":"list","bundle_id":"com.example.app"}
JOBS
"$bin/apns-worker" publish --config "$config" "$demo/broadcast.jsonl"
"$bin/apns-worker" results --config "$config" --drain --expect 2 --idle-timeout 10 | grep -v "^latency\|^throughput" | tee -a "$demo/summary.txt"

echo "== lanes: 3 urgent jobs published behind a backlog of 20,000 bulk jobs (APNs answering in 200 ms)"
mock_faults() { curl -s --http2 --cacert Tests/Fixtures/tls/ca.pem "https://localhost:2197/_mock/faults" -d "$1" > /dev/null; }
mock_faults '{"latency":{"fixed":{"milliseconds":200}}}'
python3 scripts/demo-jobs.py --plain 20000 demo-bulk > "$demo/backlog.jsonl"
python3 scripts/demo-jobs.py --plain 3 demo-urgent > "$demo/urgent.jsonl"
"$bin/apns-worker" publish --config "$config" "$demo/backlog.jsonl"
"$bin/apns-worker" publish --config "$config" --urgent "$demo/urgent.jsonl"
"$bin/apns-worker" results --config "$config" --drain --json --expect 20003 --idle-timeout 30 > "$demo/lanes.jsonl"
python3 scripts/demo-lanes.py "$demo/lanes.jsonl" | tee -a "$demo/summary.txt"
mock_faults '{"errorRate":0.02,"errorStatus":503}'

echo "== the worker's health and metrics endpoint (metrics.port, 9090 here)"
metrics_port=$(sed -n 's/^ *port: *\([0-9][0-9]*\).*/\1/p' "$config" | tail -1)
metrics_port=${metrics_port:-9090}
curl -s "http://127.0.0.1:$metrics_port/health/live"; echo
curl -s "http://127.0.0.1:$metrics_port/health/ready"; echo
curl -s "http://127.0.0.1:$metrics_port/metrics" > "$demo/metrics.txt"
grep -E '^(apns_jobs_(received|acked|requeued|in_flight)|apns_prefetch|apns_results_total|apns_jobs_(retried|dead_lettered)_total|apns_goaways_total|apns_connection_stream|apns_request_duration_seconds_(count|sum)|amqp_publish_confirm_duration_seconds_count|apns_token_age)' "$demo/metrics.txt" | sort | head -40
echo "(the whole scrape is in $demo/metrics.txt)"

echo "== stopping the worker (SIGTERM: it drains, then exits 0)"
kill -TERM "$worker"
status=0
wait "$worker" || status=$?
echo "worker exited with status $status"
echo "== dead letters (what an operator would inspect)"
"$bin/apns-worker" dead-letters list --config "$config" | tee -a "$demo/summary.txt"
echo "logs and the summary are in $demo/"
