#!/usr/bin/env bash
# The cluster fault tier (`make faults-cluster`): a three-node RabbitMQ cluster on loopback
# (scripts/rabbitmq-cluster.sh, started fresh and stopped at the end), the mock APNs and real
# `apns-worker run` processes; each scenario kills, stops or restarts nodes under load and checks
# every result. Rows go to docs/reliability.md like the other tiers'.
#   scripts/faults-cluster.sh [swift build/test options]
# APNS_FAULTS_ONLY=cluster-leader-kill runs only the named scenarios.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/opt/swift/usr/bin
scripts/install-deps.sh
scripts/rabbitmq-cluster.sh fresh
trap 'scripts/rabbitmq-cluster.sh stop' EXIT
swift build --build-tests "$@"
status=0
APNS_FAULTS=cluster swift test "$@" --filter FaultSuiteTests || status=$?
echo
echo "== docs/reliability.md"
sed -n '/<!-- fault-table:begin/,/<!-- fault-table:end -->/p' docs/reliability.md | grep -v '^<!--'
exit $status
