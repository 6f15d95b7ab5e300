#!/bin/sh
# Entry point of the local RabbitMQ images (scripts/container-images.sh: Debian's rabbitmq-server, 4.0
# on trixie-slim or 3.10 on bookworm-slim), for a cluster of such containers on host networking
# (docker/compose.host.yaml).
# Everything comes from the environment; the state lives under $HOME (a tmpfs: the root filesystem is
# read-only):
#   RABBITMQ_NODENAME      rabbit1@localhost           this node
#   RABBITMQ_NODE_PORT     5771                        AMQP, on 127.0.0.1 only (Prometheus: this + 10000)
#   RABBITMQ_DIST_PORT     25771                       Erlang distribution (read by rabbitmq-server itself)
#   RABBITMQ_CLUSTER_NODES "rabbit1@localhost …"       peer discovery's list (classic config) at first start
#   RABBITMQ_COOKIE_FILE   /run/secrets/erlang-cookie  the shared Erlang cookie
#   ERL_EPMD_PORT, ERL_EPMD_ADDRESS                    the port mapper all nodes share (read by Erlang)
set -eu
state=$HOME
export RABBITMQ_MNESIA_BASE="$state/mnesia" RABBITMQ_LOG_BASE="$state/log" \
  RABBITMQ_CONFIG_FILE="$state/rabbitmq.conf" RABBITMQ_ENABLED_PLUGINS_FILE="$state/enabled_plugins" \
  RABBITMQ_PID_FILE="$state/rabbitmq.pid" RABBITMQ_ADVANCED_CONFIG_FILE="$state/advanced.config"
mkdir -p "$RABBITMQ_MNESIA_BASE" "$RABBITMQ_LOG_BASE"
# The release installed (Debian's package puts it in rabbitmq_server-VERSION), e.g. 4.0.5.
release=$(basename /usr/lib/rabbitmq/lib/rabbitmq_server-*)
release=${release#rabbitmq_server-}
{
  echo "listeners.tcp.default = 127.0.0.1:${RABBITMQ_NODE_PORT:?}"
  echo "prometheus.tcp.ip = 127.0.0.1"
  echo "prometheus.tcp.port = $((RABBITMQ_NODE_PORT + 10000))"
  echo "log.console = true"
  echo "log.console.level = warning"
  echo "log.file = false"
  echo "cluster_partition_handling = pause_minority"
  # 4.x nodes deny a global basic.qos, as 4.3 does by default (scripts/rabbitmq-version.sh): the worker
  # never needs one. 3.10 knows no such setting and would refuse to boot.
  case $release in 3.*) ;; *) echo "deprecated_features.permit.global_qos = false" ;; esac
  if [ -n "${RABBITMQ_CLUSTER_NODES:-}" ]; then
    echo "cluster_formation.peer_discovery_backend = classic_config"
    index=1
    for node in $RABBITMQ_CLUSTER_NODES; do
      echo "cluster_formation.classic_config.nodes.$index = $node"
      index=$((index + 1))
    done
  fi
} > "$RABBITMQ_CONFIG_FILE"
# Quorum retry tiers dead-letter at-least-once; RabbitMQ 3.x's worker for that resends an unconfirmed
# letter only after this timeout (default 180 s), which holds retries that long when the jobs queue's
# leader is lost mid-send. 4.x needs no change (scripts/rabbitmq-version.sh, rabbitmq_advanced_config).
case $release in
  3.*) echo "[{rabbit, [{dead_letter_worker_publisher_confirm_timeout, 5000}]}]." ;;
  *) echo "[]." ;;
esac > "$RABBITMQ_ADVANCED_CONFIG_FILE"
# The random exchange spreads jobs over partitioned queues (topology.partitions); the Prometheus
# endpoint is the one the broker alert rules read, as on the test brokers (scripts/rabbitmq.sh).
echo "[rabbitmq_random_exchange,rabbitmq_prometheus]." > "$RABBITMQ_ENABLED_PLUGINS_FILE"
if [ -n "${RABBITMQ_COOKIE_FILE:-}" ]; then
  cp "$RABBITMQ_COOKIE_FILE" "$HOME/.erlang.cookie"
  chmod 400 "$HOME/.erlang.cookie"
fi
# The server itself, not Debian's /usr/sbin wrapper (it writes a startup log under /var/log).
exec /usr/lib/rabbitmq/bin/rabbitmq-server "$@"
