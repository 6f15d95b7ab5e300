#!/usr/bin/env bash
# The whole test suite, on both RabbitMQ versions the project supports: it starts a private RabbitMQ 4.0
# node (scripts/rabbitmq.sh; Debian 13's package in a root built once under .scratch), runs `swift test`,
# then does the same on Debian 12's RabbitMQ 3.10; each broker is stopped whatever happened. The whole
# suite takes about two minutes a version here, so both get all of it rather than a subset. Exits with
# the tests' status.
#   scripts/test.sh [swift test options]   (options, e.g. --filter, run on the first version only)
# APNS_TEST_VERSIONS="3.10" runs one version only.
set -euo pipefail
cd "$(dirname "$0")/.."
versions=${APNS_TEST_VERSIONS:-4.0 3.10}
# No module may import what its target does not declare (a transitive dependency is not a contract).
swift build --build-tests --explicit-target-dependency-import-check error
for version in $versions; do
  echo "== RabbitMQ $version"
  export APNS_RABBITMQ_VERSION=$version
  scripts/rabbitmq.sh start
  trap 'scripts/rabbitmq.sh forget' EXIT
  eval "$(scripts/rabbitmq.sh env)"
  swift test --skip-build "$@"
  scripts/rabbitmq.sh forget
  trap - EXIT
  # A filtered run is for quick iterations: one version, and no cluster.
  if [ $# -gt 0 ]; then exit 0; fi
  # The cluster tier's quick subset (`make faults-cluster` runs all of it): three RabbitMQ nodes, the
  # leader's kill -9 under load.
  trap 'scripts/rabbitmq-cluster.sh forget' EXIT
  scripts/rabbitmq-cluster.sh fresh
  APNS_FAULTS=cluster-quick swift test --skip-build --filter FaultSuiteTests
  scripts/rabbitmq-cluster.sh forget
  trap - EXIT
done
