# shellcheck shell=bash
# Sourced by rabbitmq.sh and rabbitmq-cluster.sh (after they set root and state): which RabbitMQ their
# nodes run, chosen by APNS_RABBITMQ_VERSION when they start:
#   3.10 (default)  Debian 12's rabbitmq-server on this host (/usr/lib/rabbitmq), Erlang 25
#   4.0             Debian 13's (4.0.x, Erlang 27), in a trixie root that the first 4.0 start builds and
#                   keeps in .scratch/rabbitmq-4.0/rootfs for both scripts (debootstrap from
#                   deb.debian.org, half a minute here; needs root, like chroot and mount)
# The state folder records the version its nodes were started with (file `version`, 3.10 if none): every
# other command (ctl, stop, kill, restart) uses that one, and start refuses another while a node runs.
# Each version keeps its own data and logs there (mnesia and log; mnesia-4.0 and log-4.0): a 4.0 node
# cannot read a 3.10 node's data. PID file, config, cookie and ports are the same for both.
# A 4.0 program runs chrooted in that root, in a mount namespace of its own where the state folder (and
# /tmp and /dev/shm) is bind-mounted at the path it has here (so the PID file names the same process: host and root share the
# PID namespace, and the network) and /proc is mounted. Those mounts end with its last process: none is
# ever left behind, nor seen on the host (findmnt). Its epmd listens on a port of its own (ERL_EPMD_PORT),
# never the host's 4369 that 3.10 nodes use.
# root and state come from the script that sources this, which reads the rabbitmq_* settings it sets.
# shellcheck disable=SC2034,SC2154
rabbitmq_root=$root/.scratch/rabbitmq-4.0/rootfs
host_epmd_port=${ERL_EPMD_PORT:-4369}

# The version asked for (APNS_RABBITMQ_VERSION), and the one this state folder's nodes run.
rabbitmq_requested() {
  case ${APNS_RABBITMQ_VERSION:-3.10} in
    3.10|4.0) echo "${APNS_RABBITMQ_VERSION:-3.10}" ;;
    *) echo "APNS_RABBITMQ_VERSION is 3.10 or 4.0, not ${APNS_RABBITMQ_VERSION}" >&2; exit 2 ;;
  esac
}
rabbitmq_recorded() { cat "$state/version" 2>/dev/null || echo 3.10; }

# Settings of VERSION: where its data and logs go (under a node's folder), and its epmd's port (for 4.0,
# the one given, so that a 4.0 node never registers with, nor stops, a 3.10 node's epmd).
rabbitmq_use() {
  rabbitmq_version=$1
  if [ "$1" = 3.10 ]; then
    rabbitmq_data=mnesia rabbitmq_logs=log epmd_port=$host_epmd_port
  else
    rabbitmq_data=mnesia-4.0 rabbitmq_logs=log-4.0 epmd_port=$2
  fi
  export ERL_EPMD_PORT=$epmd_port
}

# Where a node keeps its data (RABBITMQ_MNESIA_BASE) when its settings say FOLDER: the same path under
# /dev/shm/apns-rabbitmq, in RAM. A node's queues fsync every write, and on a disk still writing back a
# build's gigabytes one fsync can wait seconds: a clean-clone CI run saw every request to the 4.0 node
# time out at once 30 s into the tests, and quorum queue declarations fail with cluster_not_formed.
# In RAM, data outlives a node's stop, kill -9 and restart, as on a disk, but not the machine; no test
# here is about the disk. rabbitmq_forget FOLDER deletes it (`forget` of either broker script, the
# cluster's `fresh`, `make clean`).
rabbitmq_ram() { echo "/dev/shm/apns-rabbitmq$1"; }
rabbitmq_forget() { rm -rf --one-file-system "$(rabbitmq_ram "$1")"; }

# Runs a RabbitMQ program (rabbitmq-server, rabbitmqctl, epmd) of the version in use in place of this
# shell: call it in a subshell or in the background.
rabbitmq_exec() {
  if [ "$rabbitmq_version" = 3.10 ]; then exec "$@"; fi
  mkdir -p "$rabbitmq_root$state"
  # shellcheck disable=SC2016 # the inner shell expands them
  exec unshare --mount --propagation private -- sh -euc '
    root=$1 state=$2
    shift 2
    mount --bind "$state" "$root$state"
    # Files rabbitmqctl is given (import_definitions FILE) are where the caller wrote them: /tmp.
    mount --bind /tmp "$root/tmp"
    # Node data, in RAM (rabbitmq_ram).
    mkdir -p "$root/dev/shm"
    mount --bind /dev/shm "$root/dev/shm"
    mount -t proc proc "$root/proc"
    exec chroot "$root" /usr/bin/env PATH=/usr/lib/rabbitmq/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"' \
    sh "$rabbitmq_root" "$state" "$@"
}
# The scripts' rabbitmqctl calls then reach the right one.
rabbitmqctl() { (rabbitmq_exec rabbitmqctl "$@"); }

# Waits (up to $2 seconds) until the node writing pid file $1 serves. The node writes that file while
# `rabbitmqctl wait` may read it: a half-written file reads as garbage_in_pid_file, and rabbitmqctl
# gives up at once rather than reading again (a fresh-clone CI run of the cluster tier met it on a
# restart). So that answer is asked again, for up to 10 s; any other failure returns at once.
rabbitmq_await() {
  local pid_file=$1 timeout=$2 output started=$SECONDS
  while true; do
    if output=$(rabbitmqctl -q wait "$pid_file" --timeout "$timeout" 2>&1); then
      rabbitmqctl -q await_startup > /dev/null
      return
    fi
    if [[ $output != *garbage_in_pid_file* ]] || (( SECONDS - started >= 10 )); then break; fi
    sleep 0.2
  done
  echo "$output" >&2
  return 1
}

# The upstream version of the rabbitmq-server package in use, e.g. 3.10.8.
rabbitmq_release() {
  local admin=/var/lib/dpkg version
  if [ "$rabbitmq_version" = 4.0 ]; then admin=$rabbitmq_root/var/lib/dpkg; fi
  version=$(dpkg-query --admindir="$admin" -W -f="\${Version}" rabbitmq-server 2> /dev/null) || version=$rabbitmq_version
  version=${version#*:}
  echo "${version%%-*}"
}

# Builds the trixie root if it is not there yet: under a lock (both scripts may start at once), into a
# temporary folder renamed only when complete, so an interrupted build is started over, never used.
rabbitmq_root_build() {
  if [ "$rabbitmq_version" = 3.10 ] || [ -d "$rabbitmq_root" ]; then return; fi
  if [ "$(id -u)" -ne 0 ]; then echo "rabbitmq: RabbitMQ 4.0 runs chrooted, which needs root" >&2; exit 1; fi
  local cache partial
  cache=$(dirname "$rabbitmq_root")
  partial=$rabbitmq_root.partial
  mkdir -p "$cache"
  (
    flock 9
    if [ -d "$rabbitmq_root" ]; then exit 0; fi
    if ! command -v debootstrap > /dev/null; then
      echo "rabbitmq: installing debootstrap"
      apt-get update -qq && apt-get install -y -qq --no-install-recommends debootstrap > /dev/null
    fi
    echo "rabbitmq: building the Debian 13 root for RabbitMQ 4.0 in $rabbitmq_root (once; log in $cache/build.log)"
    # --one-file-system: never into a mount a killed build might have left (its own namespace below
    # makes that unlikely: debootstrap's /proc and /sys mounts in the root end with it).
    rm -rf --one-file-system "$partial"
    # shellcheck disable=SC2016 # the inner shell expands them
    if ! unshare --mount --propagation private -- bash -euo pipefail -c '
      root=$1
      debootstrap --variant=minbase trixie "$root" "$2"
      # Like Debian'\''s container images: no service starts when a package is installed.
      printf "#!/bin/sh\nexit 101\n" > "$root/usr/sbin/policy-rc.d"
      chmod +x "$root/usr/sbin/policy-rc.d"
      # Nodes are NAME@localhost.
      echo "127.0.0.1 localhost" > "$root/etc/hosts"
      mount -t proc proc "$root/proc"
      # procps: rabbitmqctl wait and stop follow the node'\''s OS process with ps.
      DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y --no-install-recommends rabbitmq-server procps
      chroot "$root" apt-get clean' build "$partial" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" > "$cache/build.log" 2>&1; then
      echo "rabbitmq: building the root failed; last lines of $cache/build.log:" >&2
      tail -n 20 "$cache/build.log" >&2
      exit 1
    fi
    mv -T "$partial" "$rabbitmq_root"
  ) 9> "$cache/build.lock"
}

# epmd outlives the nodes. This starts one on epmd_port unless one answers there, and adds its PID and
# port to epmd.pid then, so that epmd_stop ends only epmds this script started (after a version
# change, two).
epmd_start() {
  if (rabbitmq_exec epmd -port "$epmd_port" -names) > /dev/null 2>&1; then return; fi
  rabbitmq_exec setsid epmd -address 127.0.0.1 -port "$epmd_port" > /dev/null 2>&1 < /dev/null &
  echo "$! $epmd_port" >> "$state/epmd.pid"
  for _ in $(seq 50); do
    if (rabbitmq_exec epmd -port "$epmd_port" -names) > /dev/null 2>&1; then return; fi
    sleep 0.1
  done
  echo "rabbitmq: epmd did not start on 127.0.0.1:$epmd_port" >&2
  exit 1
}

# epmd_stop ends those, but one that nodes still use runs on, recorded for a later stop: 3.10 nodes of
# both scripts share the host's 4369, and the other script's would lose it.
epmd_stop() {
  if [ ! -f "$state/epmd.pid" ]; then return; fi
  local pid port names kept=()
  while read -r pid port; do
    port=${port:-4369}
    # Gone, or its number taken by another process since.
    if [ "$(cat "/proc/$pid/comm" 2> /dev/null)" != epmd ]; then continue; fi
    names=$(rabbitmq_exec epmd -port "$port" -names 2> /dev/null < /dev/null) || true
    case $names in *"name "*) kept+=("$pid $port"); continue ;; esac
    # SIGKILL: an epmd started under the test runner (a fault scenario's broker restart) inherits its
    # ignored SIGTERM, and SIGTERM left it running after every such run.
    kill -KILL "$pid" 2> /dev/null || true
  done < "$state/epmd.pid"
  if [ ${#kept[@]} -gt 0 ]; then printf '%s\n' "${kept[@]}" > "$state/epmd.pid"; else rm -f "$state/epmd.pid"; fi
}

# Configuration lines of the version in use. 4.0 nodes deny what RabbitMQ 4.3 denies by default (a
# global basic.qos, transient non-exclusive queues): the worker and its tools must never need them, and
# a test run against such a node proves it. `cluster` leaves transient queues permitted: denying them
# makes 4.0.5 check for them at boot, and after a kill -9 that check can run before the queue table is
# loaded and fail the boot (2 of 4 restarts in the cluster tier: failed_to_deny_deprecated_features).
rabbitmq_conf_extra() {
  if [ "$rabbitmq_version" = 4.0 ]; then
    echo "deprecated_features.permit.global_qos = false"
    if [ "${1:-}" != cluster ]; then echo "deprecated_features.permit.transient_nonexcl_queues = false"; fi
  fi
}

# advanced.config of the version in use. A quorum retry tier dead-letters at-least-once through a
# worker process that waits dead_letter_worker_publisher_confirm_timeout (180 s by default) for the
# jobs queue's confirm before it sends again. On 3.10 that confirm never comes when the jobs queue's
# leader is killed mid-send: cluster-retries-dead-letters with the default left 357 and 362 retries
# held in 2 of 3 runs, none with 5 s. 4.0 passed 6 of 6 with its default, so it keeps it.
# APNS_RABBITMQ_DLX_CONFIRM_TIMEOUT (milliseconds, or `default`) overrides either, to compare.
rabbitmq_advanced_config() {
  local timeout=${APNS_RABBITMQ_DLX_CONFIRM_TIMEOUT:-}
  if [ -z "$timeout" ]; then
    if [ "$rabbitmq_version" = 3.10 ]; then timeout=5000; else timeout=default; fi
  fi
  if [ "$timeout" = default ]; then
    echo "[]."
  else
    echo "[{rabbit, [{dead_letter_worker_publisher_confirm_timeout, $timeout}]}]."
  fi
}
