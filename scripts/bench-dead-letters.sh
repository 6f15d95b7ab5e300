#!/bin/bash
# Times apns-worker dead-letters on N letters (default 5000) in a scratch topology on the test broker
# (scripts/rabbitmq.sh start first; needs python3-pika). Prints list, replay and purge times.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-5000}
P=dlbench-$$
export APNS_WORKER__TOPOLOGY__JOBS_EXCHANGE=$P.jobs APNS_WORKER__TOPOLOGY__JOBS_QUEUE=$P.jobs \
  APNS_WORKER__TOPOLOGY__RETRY_EXCHANGE=$P.retry APNS_WORKER__TOPOLOGY__RETRY_QUEUE_PREFIX=$P.retry. \
  APNS_WORKER__TOPOLOGY__DEAD_EXCHANGE=$P.dead APNS_WORKER__TOPOLOGY__DEAD_QUEUE=$P.dead \
  APNS_WORKER__TOPOLOGY__RESULTS_EXCHANGE=$P.results APNS_WORKER__TOPOLOGY__RESULTS_QUEUE=$P.results \
  APNS_WORKER__METRICS__PORT=null
B=.build/debug/apns-worker; [ -x .build/release/apns-worker ] && B=.build/release/apns-worker
$B declare --config config/worker.local.yaml > /dev/null
/usr/bin/python3 - "$N" "$P" <<'PY'
import pika, sys, time, json
n, p = int(sys.argv[1]), sys.argv[2]
c = pika.BlockingConnection(pika.ConnectionParameters('127.0.0.1', 5673))
ch = c.channel(); ch.confirm_delivery()
for i in range(n):
    body = json.dumps({"id": f"dl-{i}", "device_token": "ab"*32, "topic": "com.example.app", "payload": {"aps": {"alert": "x"}}})
    ch.basic_publish(f"{p}.dead", "", body, pika.BasicProperties(delivery_mode=2, message_id=f"dl-{i}",
        headers={"last-error": "HTTP503: down" if i % 2 else "BadDeviceToken: x", "retry-attempt": 5, "dead-lettered-at": int(time.time()*1000)}))
c.close()
PY
$B dead-letters list --config config/worker.local.yaml | tail -4
/usr/bin/time -f "list: %e s, %M KiB" $B dead-letters list --config config/worker.local.yaml > /dev/null
/usr/bin/time -f "replay: %e s, %M KiB" $B dead-letters replay --config config/worker.local.yaml --reason HTTP503
/usr/bin/time -f "purge: %e s" $B dead-letters purge --config config/worker.local.yaml --yes | tail -1
# Leaves nothing behind: the scratch queues go (the test broker's own rabbitmqctl environment).
for q in jobs dead results retry.5s retry.30s retry.2m retry.10m; do scripts/rabbitmq.sh ctl delete_queue "$P.$q" >/dev/null 2>&1 || true; done
