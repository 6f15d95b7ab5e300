#!/usr/bin/env bash
# The whole test suite: starts a private RabbitMQ (scripts/rabbitmq.sh), runs `swift test`, stops the
# broker whatever happened, and exits with the tests' status.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/rabbitmq.sh start
trap 'scripts/rabbitmq.sh stop' EXIT
eval "$(scripts/rabbitmq.sh env)"
# No module may import what its target does not declare (a transitive dependency is not a contract).
swift build --build-tests --explicit-target-dependency-import-check error
swift test "$@"
# The cluster tier's quick subset (`make faults-cluster` runs all of it): three RabbitMQ nodes, the
# leader's kill -9 under load. Only with the whole suite; a filtered run is for quick iterations.
if [ $# -eq 0 ]; then
  scripts/rabbitmq.sh stop
  trap 'scripts/rabbitmq-cluster.sh stop; scripts/rabbitmq.sh stop' EXIT
  scripts/rabbitmq-cluster.sh fresh
  APNS_FAULTS=cluster-quick swift test --skip-build --filter FaultSuiteTests
fi
