#!/usr/bin/env bash
# A three-node RabbitMQ cluster on loopback for the cluster fault tier: nodes rabbit1@localhost …
# rabbit3@localhost, AMQP on 127.0.0.1:5681-5683 (distribution on 25681-25683), one Erlang cookie,
# each node's state under .scratch/cluster/nodeN. It stops only processes it started itself.
#   scripts/rabbitmq-cluster.sh start | fresh | stop | status | env
#   scripts/rabbitmq-cluster.sh kill N | stop-node N | restart N | ctl N ARGS...
# `fresh` stops what is left of an earlier cluster, deletes its state and starts a new one.
# `kill` is kill -9 of node N; `stop-node` stops it cleanly; `restart` starts it again (it rejoins the
# cluster from its own state). `env` prints APNS_TEST_AMQP_URLS (the three nodes, comma-separated).
# with_node exports a node's settings inside a subshell on purpose (nodes never share them), and the
# functions it runs read them there: SC2030/SC2031 warn about exactly that.
# shellcheck disable=SC2030,SC2031
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
state=${APNS_CLUSTER_DIR:-$root/.scratch/cluster}
base_port=${APNS_CLUSTER_BASE_PORT:-5680}
nodes=(1 2 3)
export PATH=/usr/lib/rabbitmq/bin:$PATH
export ERL_EPMD_ADDRESS=127.0.0.1

port_of() { echo $((base_port + $1)); }

# Runs a command with node N's environment (in a subshell, so nodes never share settings).
with_node() {
  local n=$1
  shift
  (
    local dir=$state/node$n
    export HOME=$dir/home
    export RABBITMQ_NODENAME=rabbit$n@localhost
    export RABBITMQ_MNESIA_BASE=$dir/mnesia
    export RABBITMQ_LOG_BASE=$dir/log
    export RABBITMQ_PID_FILE=$dir/rabbitmq.pid
    export RABBITMQ_CONFIG_FILE=$dir/rabbitmq.conf
    export RABBITMQ_ADVANCED_CONFIG_FILE=$dir/advanced.config
    export RABBITMQ_ENABLED_PLUGINS_FILE=$dir/enabled_plugins
    RABBITMQ_NODE_PORT=$(port_of "$n")
    export RABBITMQ_NODE_PORT
    export RABBITMQ_DIST_PORT=$((20000 + RABBITMQ_NODE_PORT))
    "$@"
  )
}

running() { [ -f "$RABBITMQ_PID_FILE" ] && kill -0 "$(cat "$RABBITMQ_PID_FILE")" 2>/dev/null; }

# Starts this node (environment from with_node) and waits until it serves.
start_node() {
  if running; then return; fi
  mkdir -p "$HOME" "$RABBITMQ_MNESIA_BASE" "$RABBITMQ_LOG_BASE"
  cat > "$RABBITMQ_CONFIG_FILE" <<CONF
listeners.tcp.default = 127.0.0.1:$RABBITMQ_NODE_PORT
log.console = false
log.file.level = warning
cluster_partition_handling = pause_minority
CONF
  # A quorum retry tier dead-letters at-least-once through a worker process that waits this long for
  # the target queue's confirm before it sends again. RabbitMQ's default (180 s) holds retries that
  # long whenever the jobs queue's leader moves mid-send (docs/operations.md, "Retry tiers").
  echo "[{rabbit, [{dead_letter_worker_publisher_confirm_timeout, 5000}]}]." > "$RABBITMQ_ADVANCED_CONFIG_FILE"
  # The random exchange (it ships with RabbitMQ) spreads jobs over partitions (topology.partitions).
  echo "[rabbitmq_random_exchange]." > "$RABBITMQ_ENABLED_PLUGINS_FILE"
  install -m 400 "$state/cookie" "$HOME/.erlang.cookie"
  setsid rabbitmq-server > "$(dirname "$RABBITMQ_PID_FILE")/server.out" 2>&1 < /dev/null &
  if ! rabbitmqctl -q wait "$RABBITMQ_PID_FILE" --timeout 120 > /dev/null || ! rabbitmqctl -q await_startup > /dev/null; then
    echo "cluster: $RABBITMQ_NODENAME failed to start; last lines of its server.out:" >&2
    tail -n 20 "$(dirname "$RABBITMQ_PID_FILE")/server.out" >&2
    exit 1
  fi
}

join_first() {
  # Their console logging (feature-flag warnings of a fresh node) is noise here; failures still stop the script.
  rabbitmqctl -q stop_app > /dev/null 2>&1
  rabbitmqctl -q reset > /dev/null 2>&1
  rabbitmqctl -q join_cluster rabbit1@localhost > /dev/null 2>&1
  rabbitmqctl -q start_app > /dev/null 2>&1
}

stop_node() {
  if running; then
    rabbitmqctl -q stop "$RABBITMQ_PID_FILE" > /dev/null 2>&1 || kill "$(cat "$RABBITMQ_PID_FILE")" 2>/dev/null || true
  fi
}

kill_node() {
  if running; then kill -9 "$(cat "$RABBITMQ_PID_FILE")"; fi
}

start() {
  mkdir -p "$state"
  if [ ! -f "$state/cookie" ]; then
    # One cookie for the three nodes: they must share it to form a cluster.
    head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$state/cookie"
    chmod 400 "$state/cookie"
  fi
  local epmd_before
  epmd_before=$(pgrep -x epmd || true)
  local fresh=()
  for n in "${nodes[@]}"; do
    if [ ! -d "$state/node$n/mnesia" ]; then fresh+=("$n"); fi
    with_node "$n" start_node
  done
  if [ -z "$epmd_before" ] && [ ! -f "$state/epmd.pid" ]; then pgrep -x epmd > "$state/epmd.pid" || true; fi
  for n in "${fresh[@]}"; do
    if [ "$n" != 1 ]; then with_node "$n" join_first; fi
  done
  echo "cluster: rabbit1-3@localhost on 127.0.0.1:$(port_of 1)-$(port_of 3) (state in $state)"
}

stop() {
  # Node 1 stops last: a RabbitMQ node waits at boot for the cluster's last node to stop, and start
  # boots node 1 first.
  for n in 3 2 1; do with_node "$n" stop_node; done
  if [ -f "$state/epmd.pid" ]; then
    kill "$(cat "$state/epmd.pid")" 2>/dev/null || true
    rm -f "$state/epmd.pid"
  fi
  echo "cluster: stopped"
}

# A cluster formed now from no state: a node left from an earlier run may hold another cluster's.
fresh() {
  stop > /dev/null 2>&1 || true
  rm -rf "$state"
  start
}

status() {
  local down=0
  for n in "${nodes[@]}"; do
    if with_node "$n" running; then echo "rabbit$n@localhost: running on 127.0.0.1:$(port_of "$n")"; else echo "rabbit$n@localhost: down"; down=1; fi
  done
  return $down
}

node_arg() {
  case "${1:-}" in 1|2|3) ;; *) echo "usage: $0 $2 1|2|3" >&2; exit 2 ;; esac
}

case "${1:-}" in
  start) start ;;
  fresh) fresh ;;
  stop) stop ;;
  status) status ;;
  env) echo "export APNS_TEST_AMQP_URLS=$(for n in "${nodes[@]}"; do printf 'amqp://guest:guest@127.0.0.1:%s/,' "$(port_of "$n")"; done | sed 's/,$//')" ;;
  kill) node_arg "${2:-}" kill; with_node "$2" kill_node ;;
  stop-node) node_arg "${2:-}" stop-node; with_node "$2" stop_node ;;
  restart) node_arg "${2:-}" restart; with_node "$2" start_node ;;
  ctl) node_arg "${2:-}" ctl; n=$2; shift 2; with_node "$n" rabbitmqctl "$@" ;;
  *) echo "usage: $0 start|fresh|stop|status|env|kill N|stop-node N|restart N|ctl N ARGS..." >&2; exit 2 ;;
esac
