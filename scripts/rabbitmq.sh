#!/usr/bin/env bash
# Starts, stops or checks a private RabbitMQ node for the tests and the demo. Everything it writes lives
# under one scratch folder, it listens on loopback only, and it stops only processes it started itself.
#   scripts/rabbitmq.sh start | stop | status | env | ctl ARGS...
# `ctl` runs rabbitmqctl against this node with its environment, e.g. `ctl list_connections name`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
state=${APNS_RABBITMQ_DIR:-$root/.scratch/rabbitmq}
port=${APNS_RABBITMQ_PORT:-5673}

# Debian's /usr/sbin wrappers switch to the rabbitmq user; the real scripts run as whoever calls them.
export PATH=/usr/lib/rabbitmq/bin:$PATH
export HOME=$state/home
export RABBITMQ_NODENAME=apnsworker@localhost
export RABBITMQ_MNESIA_BASE=$state/mnesia
export RABBITMQ_LOG_BASE=$state/log
export RABBITMQ_PID_FILE=$state/rabbitmq.pid
export RABBITMQ_CONFIG_FILE=$state/rabbitmq.conf
export RABBITMQ_ENABLED_PLUGINS_FILE=$state/enabled_plugins
export RABBITMQ_NODE_PORT=$port
export RABBITMQ_DIST_PORT=$((port + 20000))
export ERL_EPMD_ADDRESS=127.0.0.1

running() { [ -f "$RABBITMQ_PID_FILE" ] && kill -0 "$(cat "$RABBITMQ_PID_FILE")" 2>/dev/null; }

start() {
  if running; then echo "rabbitmq: already running on 127.0.0.1:$port"; return; fi
  mkdir -p "$HOME" "$RABBITMQ_MNESIA_BASE" "$RABBITMQ_LOG_BASE"
  cat > "$RABBITMQ_CONFIG_FILE" <<CONF
listeners.tcp.default = 127.0.0.1:$port
log.console = false
log.file.level = warning
CONF
  # The random exchange (it ships with RabbitMQ) spreads jobs over partitions (topology.partitions).
  echo "[rabbitmq_random_exchange]." > "$RABBITMQ_ENABLED_PLUGINS_FILE"
  # epmd outlives the node; remember whether this script started it, so stop ends only our own.
  local epmd_before
  epmd_before=$(pgrep -x epmd || true)
  setsid rabbitmq-server > "$state/server.out" 2>&1 < /dev/null &
  if ! rabbitmqctl -q wait "$RABBITMQ_PID_FILE" --timeout 90 > /dev/null || ! rabbitmqctl -q await_startup > /dev/null; then
    echo "rabbitmq: failed to start; last lines of $state/server.out:" >&2
    tail -n 20 "$state/server.out" >&2
    exit 1
  fi
  if [ -z "$epmd_before" ]; then pgrep -x epmd > "$state/epmd.pid" || true; fi
  echo "rabbitmq: running on 127.0.0.1:$port (state in $state)"
}

stop() {
  if running; then
    rabbitmqctl -q stop "$RABBITMQ_PID_FILE" > /dev/null 2>&1 || kill "$(cat "$RABBITMQ_PID_FILE")" 2>/dev/null || true
  fi
  if [ -f "$state/epmd.pid" ]; then
    kill "$(cat "$state/epmd.pid")" 2>/dev/null || true
    rm -f "$state/epmd.pid"
  fi
  echo "rabbitmq: stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) if running; then echo "running on 127.0.0.1:$port"; else echo "not running"; exit 1; fi ;;
  env) echo "export APNS_TEST_AMQP_URL=amqp://guest:guest@127.0.0.1:$port/" ;;
  ctl) shift; exec rabbitmqctl "$@" ;;
  *) echo "usage: $0 start|stop|status|env|ctl ARGS..." >&2; exit 2 ;;
esac
