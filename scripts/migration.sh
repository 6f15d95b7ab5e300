#!/usr/bin/env bash
# The broker-migration test (`make faults` runs it last): a RabbitMQ 3.10 node ("blue", 127.0.0.1:5675)
# and a 4.0 node ("green", 127.0.0.1:5676) side by side, each with its own state folder, and the
# worker moved from one to the other with jobs in flight (Tests/WorkerTests/Migration). Both nodes are
# stopped at the end, and their data deleted (`forget`).
#   scripts/migration.sh [swift build/test options]
set -euo pipefail
cd "$(dirname "$0")/.."
blue() { APNS_RABBITMQ_VERSION=3.10 APNS_RABBITMQ_DIR=$PWD/.scratch/blue APNS_RABBITMQ_PORT=5675 scripts/rabbitmq.sh "$@"; }
green() { APNS_RABBITMQ_VERSION=4.0 APNS_RABBITMQ_DIR=$PWD/.scratch/green APNS_RABBITMQ_PORT=5676 scripts/rabbitmq.sh "$@"; }
blue start
trap 'blue forget' EXIT
green start
trap 'green forget; blue forget' EXIT
swift build --build-tests "$@"
APNS_MIGRATION_BLUE=amqp://guest:guest@127.0.0.1:5675/ APNS_MIGRATION_GREEN=amqp://guest:guest@127.0.0.1:5676/ \
  swift test "$@" --skip-build --filter BrokerMigrationTests
