#!/usr/bin/env bash
# A three-node RabbitMQ cluster on loopback for the cluster fault tier: nodes rabbit1@localhost …
# rabbit3@localhost, AMQP on 127.0.0.1:5681-5683 (distribution on 25681-25683), one Erlang cookie,
# each node's state under .scratch/cluster/nodeN. It stops only processes it started itself.
#   scripts/rabbitmq-cluster.sh start | fresh | stop | forget | status | env
#   scripts/rabbitmq-cluster.sh kill N | stop-node N | restart N | ctl N ARGS...
# `fresh` stops what is left of an earlier cluster, deletes its state and starts a new one; `forget`
# stops it and deletes its state and data (scripts that started it for their own run end with it).
# `kill` is kill -9 of node N; `stop-node` stops it cleanly; `restart` starts it again (it rejoins the
# cluster from its own state). `env` prints APNS_TEST_AMQP_URLS (the three nodes, comma-separated).
# APNS_RABBITMQ_VERSION=4.0 starts RabbitMQ 4.0 instead of the host's 3.10 (scripts/rabbitmq-version.sh);
# with it, APNS_RABBITMQ_KHEPRI=1 moves the cluster's metadata store to Khepri once it has formed
# (feature flag khepri_db, for good: `fresh` starts without). A Khepri node boots only next to a running
# majority, so start then boots the three at once, and restart N needs one other node up.
# with_node exports a node's settings inside a subshell on purpose (nodes never share them), and the
# functions it runs read them there: SC2030/SC2031 warn about exactly that.
# shellcheck disable=SC2030,SC2031
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
state=${APNS_CLUSTER_DIR:-$root/.scratch/cluster}
base_port=${APNS_CLUSTER_BASE_PORT:-5680}
nodes=(1 2 3)
# shellcheck source=scripts/rabbitmq-version.sh
source "$root/scripts/rabbitmq-version.sh"
export PATH=/usr/lib/rabbitmq/bin:$PATH
export ERL_EPMD_ADDRESS=127.0.0.1

port_of() { echo $((base_port + $1)); }

# Version settings: 4.0 nodes' epmd port is 44 and the base port's last two digits (4480).
use() { rabbitmq_use "$1" $((4400 + base_port % 100)); }

# Runs a command with node N's environment (in a subshell, so nodes never share settings).
with_node() {
  local n=$1
  shift
  (
    local dir=$state/node$n
    export HOME=$dir/home
    export RABBITMQ_NODENAME=rabbit$n@localhost
    RABBITMQ_MNESIA_BASE=$(rabbitmq_ram "$dir/$rabbitmq_data")
    export RABBITMQ_MNESIA_BASE
    export RABBITMQ_LOG_BASE=$dir/$rabbitmq_logs
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
  launch_node
  await_node
}

launch_node() {
  if running; then return; fi
  mkdir -p "$HOME" "$RABBITMQ_MNESIA_BASE" "$RABBITMQ_LOG_BASE"
  cat > "$RABBITMQ_CONFIG_FILE" <<CONF
listeners.tcp.default = 127.0.0.1:$RABBITMQ_NODE_PORT
log.console = false
log.file.level = warning
cluster_partition_handling = pause_minority
prometheus.tcp.ip = 127.0.0.1
prometheus.tcp.port = $((RABBITMQ_NODE_PORT + 10000))
$(rabbitmq_conf_extra cluster)
CONF
  # The retry tiers' dead-letter confirm timeout, on 3.10 only (docs/operations.md, "Retry tiers").
  rabbitmq_advanced_config > "$RABBITMQ_ADVANCED_CONFIG_FILE"
  # The random exchange (it ships with RabbitMQ) spreads jobs over partitions (topology.partitions).
  # The Prometheus endpoint listens on the AMQP port + 10000, as the single node's does.
  echo "[rabbitmq_random_exchange,rabbitmq_prometheus]." > "$RABBITMQ_ENABLED_PLUGINS_FILE"
  install -m 400 "$state/cookie" "$HOME/.erlang.cookie"
  # A killed node's pid file names a process that is gone; `wait` must find only the new one's.
  rm -f "$RABBITMQ_PID_FILE"
  rabbitmq_exec setsid rabbitmq-server > "$(dirname "$RABBITMQ_PID_FILE")/server.out" 2>&1 < /dev/null &
}

await_node() {
  if ! rabbitmq_await "$RABBITMQ_PID_FILE" 120; then
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
  # Until it is gone: a restart right after would take it (a zombie for a moment) for running.
  for _ in $(seq 100); do if running; then sleep 0.1; else return 0; fi; done
}

any_running() {
  for n in "${nodes[@]}"; do if with_node "$n" running; then return 0; fi; done
  return 1
}

# Starts the nodes that are down, with the version asked for ($version: read before fresh stops or
# deletes anything); never next to nodes of another version.
start() {
  if any_running && [ "$(rabbitmq_recorded)" != "$version" ]; then
    echo "cluster: RabbitMQ $(rabbitmq_recorded) nodes run on 127.0.0.1:$(port_of 1)-$(port_of 3), not $version; stop them first (scripts/rabbitmq-cluster.sh stop)" >&2
    exit 1
  fi
  use "$version"
  rabbitmq_root_build
  mkdir -p "$state"
  echo "$version" > "$state/version"
  if [ ! -f "$state/cookie" ]; then
    # One cookie for the three nodes: they must share it to form a cluster.
    head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$state/cookie"
    chmod 400 "$state/cookie"
  fi
  epmd_start
  local fresh=()
  for n in "${nodes[@]}"; do
    if [ ! -d "$(rabbitmq_ram "$state/node$n/$rabbitmq_data")" ]; then fresh+=("$n"); fi
  done
  if [ -f "$state/khepri" ]; then
    # Khepri boots only once a majority of the nodes elect a leader: node 1 alone would wait in vain.
    for n in "${nodes[@]}"; do with_node "$n" launch_node; done
    for n in "${nodes[@]}"; do with_node "$n" await_node; done
  else
    for n in "${nodes[@]}"; do with_node "$n" start_node; done
  fi
  for n in "${fresh[@]}"; do
    if [ "$n" != 1 ]; then with_node "$n" join_first; fi
  done
  local store=""
  if [ "${APNS_RABBITMQ_KHEPRI:-0}" = 1 ] && [ ! -f "$state/khepri" ]; then
    # All three nodes must run (they do now); it migrates the metadata from Mnesia, then keeps Khepri.
    # An opt-in flag in 4.0: enable_feature_flag all leaves it out.
    with_node 1 rabbitmqctl -q enable_feature_flag --opt-in khepri_db > /dev/null
    touch "$state/khepri"
  fi
  if [ -f "$state/khepri" ]; then store=", Khepri"; fi
  echo "cluster: RabbitMQ $(rabbitmq_release)$store, rabbit1-3@localhost on 127.0.0.1:$(port_of 1)-$(port_of 3) (state in $state)"
}

stop() {
  # Node 1 stops last: a RabbitMQ node waits at boot for the cluster's last node to stop, and start
  # boots node 1 first.
  for n in 3 2 1; do with_node "$n" stop_node; done
  epmd_stop
  echo "cluster: stopped"
}

# A cluster formed now from no state: a node left from an earlier run may hold another cluster's.
fresh() {
  forget > /dev/null 2>&1 || true
  start
}

# No cluster, and nothing of one left: its data is in RAM and outlives a stop.
forget() {
  stop
  rm -rf "$state"
  rabbitmq_forget "$state"
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

# Every command acts on the nodes as they were started; start (and fresh) then takes the version asked for.
use "$(rabbitmq_recorded)"
case "${1:-}" in
  start|fresh)
    version=$(rabbitmq_requested)
    if [ "${APNS_RABBITMQ_KHEPRI:-0}" = 1 ] && [ "$version" != 4.0 ]; then
      echo "cluster: APNS_RABBITMQ_KHEPRI needs APNS_RABBITMQ_VERSION=4.0" >&2
      exit 2
    fi ;;
esac
case "${1:-}" in
  start) start ;;
  fresh) fresh ;;
  stop) stop ;;
  forget) forget ;;
  status) status ;;
  env) echo "export APNS_TEST_AMQP_URLS=$(for n in "${nodes[@]}"; do printf 'amqp://guest:guest@127.0.0.1:%s/,' "$(port_of "$n")"; done | sed 's/,$//')" ;;
  kill) node_arg "${2:-}" kill; with_node "$2" kill_node ;;
  stop-node) node_arg "${2:-}" stop-node; with_node "$2" stop_node ;;
  restart) node_arg "${2:-}" restart; with_node "$2" start_node ;;
  ctl) node_arg "${2:-}" ctl; n=$2; shift 2; with_node "$n" rabbitmqctl "$@" ;;
  *) echo "usage: $0 start|fresh|stop|forget|status|env|kill N|stop-node N|restart N|ctl N ARGS..." >&2; exit 2 ;;
esac
