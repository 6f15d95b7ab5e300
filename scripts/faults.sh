#!/usr/bin/env bash
# The fault-injection suite (`make faults`): every scenario of Tests/WorkerTests/Faults against a private
# RabbitMQ, the mock APNs and real `apns-worker run` processes, then the table it wrote to
# docs/reliability.md. Stops the broker at the end if this script started it.
#   scripts/faults.sh [swift build/test options, e.g. --scratch-path .build-faults]
# APNS_FAULTS_ONLY=kill-9,goaway runs only the named scenarios; APNS_FAULTS_KEEP_LOGS=1 keeps every
# worker log (a failing scenario's log is always kept, and its path printed).
# APNS_RABBITMQ_VERSION=4.0 runs the suite on RabbitMQ 4.0 (scripts/rabbitmq-version.sh). Last, whatever
# the version, the 3.10 → 4.0 move of a fleet with jobs in flight (scripts/migration.sh).
# The scenarios run the release build of `apns-worker` (scripts/fault-worker.sh); APNS_FAULTS_WORKER=debug
# runs the debug build beside the tests instead.
# Note: the broker-restart scenario stops and starts this broker; run nothing else against it meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/broker-session.sh
source scripts/broker-session.sh
swift build --build-tests "$@"
# shellcheck source=scripts/fault-worker.sh
source scripts/fault-worker.sh
status=0
env "${worker[@]}" APNS_FAULTS=full swift test "$@" --filter FaultSuiteTests || status=$?
env "${worker[@]}" scripts/migration.sh "$@" || status=$?
echo
echo "== docs/reliability.md"
sed -n '/<!-- fault-table:begin/,/<!-- fault-table:end -->/p' docs/reliability.md | grep -v '^<!--'
exit $status
