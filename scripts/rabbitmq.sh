#!/usr/bin/env bash
# Starts, stops or checks a private RabbitMQ node for the tests and the demo. Everything it writes lives
# under one scratch folder but its data, which is in RAM (rabbitmq_ram in scripts/rabbitmq-version.sh);
# it listens on loopback only, and it stops only processes it started itself.
#   scripts/rabbitmq.sh start | stop | forget | status | env | ctl ARGS...
# `forget` stops the node and deletes its data: scripts that started it for their own run end with it,
# since the data (in RAM) outlives a stop, and a clone deleted with it left hundreds of MiB behind.
# `ctl` runs rabbitmqctl against this node with its environment, e.g. `ctl list_connections name`.
# APNS_RABBITMQ_VERSION=4.0 starts RabbitMQ 4.0 instead of the host's 3.10 (scripts/rabbitmq-version.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
state=${APNS_RABBITMQ_DIR:-$root/.scratch/rabbitmq}
port=${APNS_RABBITMQ_PORT:-5673}
# shellcheck source=scripts/rabbitmq-version.sh
source "$root/scripts/rabbitmq-version.sh"

# Debian's /usr/sbin wrappers switch to the rabbitmq user; the real scripts run as whoever calls them.
export PATH=/usr/lib/rabbitmq/bin:$PATH
export HOME=$state/home
# One name per port: nodes on other ports (scripts/migration.sh's 3.10 and 4.0) share the host's epmd.
if [ "$port" = 5673 ]; then export RABBITMQ_NODENAME=apnsworker@localhost; else export RABBITMQ_NODENAME=apnsworker$port@localhost; fi
export RABBITMQ_PID_FILE=$state/rabbitmq.pid
export RABBITMQ_CONFIG_FILE=$state/rabbitmq.conf
export RABBITMQ_ENABLED_PLUGINS_FILE=$state/enabled_plugins
export RABBITMQ_NODE_PORT=$port
export RABBITMQ_DIST_PORT=$((port + 20000))
export ERL_EPMD_ADDRESS=127.0.0.1

running() { [ -f "$RABBITMQ_PID_FILE" ] && kill -0 "$(cat "$RABBITMQ_PID_FILE")" 2>/dev/null; }

# Version settings: a 4.0 node's epmd port is 44 and this node's port's last two digits (4473).
use() {
  rabbitmq_use "$1" $((4400 + port % 100))
  RABBITMQ_MNESIA_BASE=$(rabbitmq_ram "$state/$rabbitmq_data")
  export RABBITMQ_MNESIA_BASE
  export RABBITMQ_LOG_BASE=$state/$rabbitmq_logs
}

start() {
  local version
  version=$(rabbitmq_requested)
  if running; then
    if [ "$(rabbitmq_recorded)" != "$version" ]; then
      echo "rabbitmq: a RabbitMQ $(rabbitmq_recorded) node runs on 127.0.0.1:$port, not $version; stop it first (scripts/rabbitmq.sh stop)" >&2
      exit 1
    fi
    echo "rabbitmq: already running on 127.0.0.1:$port"
    return
  fi
  use "$version"
  rabbitmq_root_build
  mkdir -p "$HOME" "$RABBITMQ_MNESIA_BASE" "$RABBITMQ_LOG_BASE"
  echo "$version" > "$state/version"
  # amqps on port + 1000, with the test-only certificates (copied into the state folder, which a 4.0
  # node sees at the same path), for the client's TLS against a real broker.
  mkdir -p "$state/tls"
  cp "$root/Tests/Fixtures/tls/ca.pem" "$root/Tests/Fixtures/tls/server.pem" "$state/tls/"
  install -m 600 "$root/Tests/Fixtures/tls/server.key" "$state/tls/server.key"
  cat > "$RABBITMQ_CONFIG_FILE" <<CONF
listeners.tcp.default = 127.0.0.1:$port
listeners.ssl.default = 127.0.0.1:$((port + 1000))
ssl_options.cacertfile = $state/tls/ca.pem
ssl_options.certfile = $state/tls/server.pem
ssl_options.keyfile = $state/tls/server.key
ssl_options.verify = verify_peer
ssl_options.fail_if_no_peer_cert = false
log.console = false
log.file.level = warning
prometheus.tcp.ip = 127.0.0.1
prometheus.tcp.port = $((port + 10000))
$(rabbitmq_conf_extra single)
CONF
  # The random exchange (it ships with RabbitMQ) spreads jobs over partitions (topology.partitions);
  # the Prometheus endpoint (on the AMQP port + 10000) is what the broker alert rules are tested against.
  echo "[rabbitmq_random_exchange,rabbitmq_prometheus]." > "$RABBITMQ_ENABLED_PLUGINS_FILE"
  epmd_start
  rm -f "$RABBITMQ_PID_FILE"
  rabbitmq_exec setsid rabbitmq-server > "$state/server.out" 2>&1 < /dev/null &
  if ! rabbitmq_await "$RABBITMQ_PID_FILE" 90; then
    echo "rabbitmq: failed to start; last lines of $state/server.out:" >&2
    tail -n 20 "$state/server.out" >&2
    exit 1
  fi
  echo "rabbitmq: $(rabbitmq_release) running on 127.0.0.1:$port (state in $state, data in $RABBITMQ_MNESIA_BASE)"
}

stop() {
  if running; then
    rabbitmqctl -q stop "$RABBITMQ_PID_FILE" > /dev/null 2>&1 || kill "$(cat "$RABBITMQ_PID_FILE")" 2>/dev/null || true
  fi
  epmd_stop
  echo "rabbitmq: stopped"
}

forget() {
  stop
  rabbitmq_forget "$state"
}

# Every command acts on the node as it was started; start then takes the version asked for.
use "$(rabbitmq_recorded)"
case "${1:-}" in
  start) start ;;
  stop) stop ;;
  forget) forget ;;
  status) if running; then echo "running on 127.0.0.1:$port"; else echo "not running"; exit 1; fi ;;
  env) echo "export APNS_TEST_AMQP_URL=amqp://guest:guest@127.0.0.1:$port/ APNS_TEST_AMQPS_PORT=$((port + 1000)) APNS_TEST_BROKER_METRICS=127.0.0.1:$((port + 10000))" ;;
  ctl) shift; rabbitmq_exec rabbitmqctl "$@" ;;
  *) echo "usage: $0 start|stop|forget|status|env|ctl ARGS..." >&2; exit 2 ;;
esac
