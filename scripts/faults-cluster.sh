#!/usr/bin/env bash
# The cluster fault tier (`make faults-cluster`): a three-node RabbitMQ cluster on loopback
# (scripts/rabbitmq-cluster.sh, started fresh and stopped at the end), the mock APNs and real
# `apns-worker run` processes; each scenario kills, stops or restarts nodes under load and checks
# every result. Rows go to docs/reliability.md like the other tiers'.
#   scripts/faults-cluster.sh [swift build/test options]
# APNS_FAULTS_ONLY=cluster-leader-kill runs only the named scenarios; APNS_RABBITMQ_VERSION=4.0 runs the
# tier on RabbitMQ 4.0 (scripts/rabbitmq-version.sh); APNS_FAULTS_WORKER=debug runs the debug worker
# instead of the release build (scripts/fault-worker.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/opt/swift/usr/bin
scripts/install-deps.sh
# RabbitMQ 4.0 runs this tier on Khepri, the metadata store that is the default from 4.2 and the only
# one in 4.3 (make test's quick subset covers 4.0's default, Mnesia); APNS_RABBITMQ_KHEPRI=0 opts out.
if [ "${APNS_RABBITMQ_VERSION:-3.10}" = 4.0 ]; then export APNS_RABBITMQ_KHEPRI=${APNS_RABBITMQ_KHEPRI:-1}; fi
scripts/rabbitmq-cluster.sh fresh
trap 'scripts/rabbitmq-cluster.sh forget' EXIT
swift build --build-tests "$@"
# shellcheck source=scripts/fault-worker.sh
source scripts/fault-worker.sh
status=0
env "${worker[@]}" APNS_FAULTS=cluster swift test "$@" --filter FaultSuiteTests || status=$?
echo
echo "== docs/reliability.md"
sed -n '/<!-- fault-table:begin/,/<!-- fault-table:end -->/p' docs/reliability.md | grep -v '^<!--'
exit $status
