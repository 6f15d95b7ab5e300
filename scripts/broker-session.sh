# shellcheck shell=bash
# Sourced by the scripts that need the test broker (faults.sh, sanitize.sh): installs what is missing,
# starts the private RabbitMQ unless it runs already, exports the tests' broker environment, and on
# exit leaves the broker as it was found: stopped and its data deleted if this script started it,
# running otherwise (a fault scenario restarts it, and must not leave it down).
export PATH=$PATH:/opt/swift/usr/bin
scripts/install-deps.sh
broker_started=""
if ! scripts/rabbitmq.sh status > /dev/null 2>&1; then broker_started=1; fi
scripts/rabbitmq.sh start
trap 'if [ -n "$broker_started" ]; then scripts/rabbitmq.sh forget; else scripts/rabbitmq.sh start > /dev/null; fi' EXIT
eval "$(scripts/rabbitmq.sh env)"
