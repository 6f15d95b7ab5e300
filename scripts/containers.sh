#!/usr/bin/env bash
# `make containers`: builds the worker and mock images from docker/Dockerfile (on the local base images
# of scripts/container-images.sh), runs docker/compose.host.yaml (a three-node RabbitMQ cluster, the
# mock APNs and three workers, all on the host's network and 127.0.0.1), publishes jobs, stops one
# worker with SIGTERM mid-load and checks it drained and exited 0, checks every result, and checks each
# container runs as a non-root user on a read-only root filesystem. The figures (image sizes, build
# and start-up times) replace the block between the markers in docs/deployment.md.
# The cluster runs RabbitMQ 4.0 (Debian 13's 4.0.5); APNS_RABBITMQ_VERSION=3.10 runs Debian 12's 3.10.8
# instead (the setting of scripts/rabbitmq-version.sh), and then leaves the docs' figures, 4.0's, as
# they are.
#   JOBS=6000 scripts/containers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
docker=/usr/bin/docker
export DOCKER_BUILDKIT=1
jobs=${JOBS:-6000}
out=.scratch/containers
project=apnshost
compose=(docker-compose -p "$project" -f docker/compose.host.yaml)
mkdir -p "$out"
# Read by scripts/container-images.sh (which image to build) and by compose.host.yaml (RABBITMQ_IMAGE).
export APNS_RABBITMQ_VERSION=${APNS_RABBITMQ_VERSION:-4.0}
case $APNS_RABBITMQ_VERSION in
  4.0) export RABBITMQ_IMAGE=apns-local/rabbitmq:4.0-trixie ;;
  3.10) export RABBITMQ_IMAGE=apns-local/rabbitmq:3.10-bookworm ;;
  *) echo "containers: APNS_RABBITMQ_VERSION is 4.0 or 3.10, not $APNS_RABBITMQ_VERSION" >&2; exit 2 ;;
esac

scripts/install-deps.sh
missing=()
for package in docker.io docker-compose debootstrap; do
  dpkg-query -W -f='${Status}' "$package" 2> /dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "containers: installing ${missing[*]}"
  # No service starts on install (there is no systemd here; dockerd is started below).
  guard=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; guard=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
  [ -z "$guard" ] || rm -f /usr/sbin/policy-rc.d
fi

# The engine: no bridge and no iptables (containers use the host's network only). Started here only
# if none runs, and then stopped at the end.
dockerd_pid=""
if ! $docker info > /dev/null 2>&1; then
  setsid dockerd --bridge=none --iptables=false --ip6tables=false > "$out/dockerd.log" 2>&1 < /dev/null &
  dockerd_pid=$!
  for _ in $(seq 60); do $docker info > /dev/null 2>&1 && break; sleep 0.5; done
  $docker info > /dev/null 2>&1 || { tail -n 20 "$out/dockerd.log" >&2; exit 1; }
fi
cleanup() {
  "${compose[@]}" logs --no-color > "$out/compose.log" 2>&1 || true
  "${compose[@]}" down --volumes --remove-orphans > /dev/null 2>&1 || true
  if [ -n "$dockerd_pid" ]; then kill "$dockerd_pid" 2> /dev/null || true; wait "$dockerd_pid" 2> /dev/null || true; fi
}
trap cleanup EXIT
"${compose[@]}" down --volumes --remove-orphans > /dev/null 2>&1 || true

echo "== base images (local stand-ins, from Debian packages)"
scripts/container-images.sh

echo "== worker and mock images from docker/Dockerfile"
# CONTAINERS_COLD_BUILD=1: forget BuildKit's layers and cache mounts first, so the build time is a
# first build's (the base images stay).
if [ -n "${CONTAINERS_COLD_BUILD:-}" ]; then $docker builder prune -af > /dev/null; fi
build_started=$(date +%s)
for target in worker mock-apns; do
  tag=$([ "$target" = worker ] && echo apns-worker:dev || echo apns-mock:dev)
  $docker build --network host -f docker/Dockerfile --target "$target" \
    --build-arg SWIFT_IMAGE=apns-local/swift:6-bookworm -t "$tag" . > "$out/build-$target.log" 2>&1 \
    || { tail -n 40 "$out/build-$target.log" >&2; exit 1; }
done
build_seconds=$(($(date +%s) - build_started))
mib() { $docker image inspect -f '{{.Size}}' "$1" | awk '{printf "%.0f", $1 / 1048576}'; }
echo "built in ${build_seconds}s: apns-worker:dev $(mib apns-worker:dev) MiB, apns-mock:dev $(mib apns-mock:dev) MiB"

# What the stack mounts: a fresh cookie, and copies of the TEST-ONLY keys and CA readable by the
# containers' users (make demo leaves the originals 0600).
head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' > "$out/erlang-cookie"
mkdir -p "$out/fixtures"
install -m 644 Tests/Fixtures/keys/AuthKey_TESTKEY001.p8 Tests/Fixtures/keys/AuthKey_TESTKEY002.p8 Tests/Fixtures/tls/ca.pem "$out/fixtures/"
chmod 644 "$out/erlang-cookie"

ready() { curl -sf "http://127.0.0.1:$1/health/ready" > /dev/null; }
wait_ready() {
  for _ in $(seq 240); do
    local all=1
    for port in "$@"; do ready "$port" || all=0; done
    [ $all = 1 ] && return 0
    sleep 0.5
  done
  echo "containers: workers on $* not ready within 2 minutes" >&2
  "${compose[@]}" ps >&2
  return 1
}

echo "== the stack: three RabbitMQ nodes, mock APNs, declare, three workers"
up_started=$(date +%s.%N)
"${compose[@]}" up -d > "$out/up.log" 2>&1 || { cat "$out/up.log" >&2; exit 1; }
wait_ready 9291 9292 9293
stack_seconds=$(echo "$(date +%s.%N) - $up_started" | bc)
nodes=$("${compose[@]}" exec -T rabbit1 rabbitmqctl -q cluster_status --formatter json | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)["running_nodes"]))')
[ "$nodes" = 3 ] || { echo "containers: the cluster runs $nodes nodes, not 3" >&2; exit 1; }
# What each node reports on its Prometheus endpoint (AMQP port + 10000): RabbitMQ's and Erlang's versions.
release() {
  curl -sf "http://127.0.0.1:$1/metrics" | /usr/bin/python3 -c 'import re,sys
info = re.search(r"^rabbitmq_build_info\{(.*)\}", sys.stdin.read(), re.M).group(1)
labels = dict(re.findall(r"(\w+)=\"([^\"]*)\"", info))
print("RabbitMQ", labels["rabbitmq_version"] + ", Erlang", labels["erlang_version"])'
}
release=""
for port in 15771 15772 15773; do
  node=$(release "$port") || { echo "containers: no rabbitmq_build_info on 127.0.0.1:$port/metrics" >&2; exit 1; }
  [ -z "$release" ] || [ "$node" = "$release" ] || { echo "containers: the nodes run $release and $node" >&2; exit 1; }
  release=$node
done
case $release in
  "RabbitMQ $APNS_RABBITMQ_VERSION."*) ;;
  *) echo "containers: the cluster runs $release, not RabbitMQ $APNS_RABBITMQ_VERSION" >&2; exit 1 ;;
esac
echo "stack ready in ${stack_seconds}s; cluster of $nodes nodes, $release ($RABBITMQ_IMAGE)"

echo "== non-root, read-only"
for service in mock-apns worker1 worker2 worker3 rabbit1 rabbit2 rabbit3; do
  id=$("${compose[@]}" ps -q "$service")
  pid=$($docker inspect -f '{{.State.Pid}}' "$id")
  readonly_root=$($docker inspect -f '{{.HostConfig.ReadonlyRootfs}}' "$id")
  uid=$(awk '/^Uid:/ {print $2}' "/proc/$pid/status")
  [ "$uid" != 0 ] || { echo "containers: $service runs as root" >&2; exit 1; }
  [ "$readonly_root" = true ] || { echo "containers: $service has a writable root filesystem" >&2; exit 1; }
  if $docker exec "$id" sh -c 'echo x > /probe' 2> /dev/null; then echo "containers: $service could write to /" >&2; exit 1; fi
  echo "$service: uid $uid, read-only root (a write to / fails)"
done

# Apple's servers chain to this root since 2025: the image's trust store (ca-certificates) must have it.
$docker run --rm --network none --read-only --entrypoint /bin/sh apns-worker:dev \
  -c 'test -s /etc/ssl/certs/USERTrust_RSA_Certification_Authority.pem' \
  || { echo "containers: the worker image's trust store lacks USERTrust RSA Certification Authority" >&2; exit 1; }
echo "worker image trusts USERTrust RSA Certification Authority (Apple's root since 2025)"

# The release build's malloc is jemalloc (docs/decisions.md): the image must carry it and use it.
version=$($docker run --rm --network none --read-only apns-worker:dev version)
# ", jemalloc <version>" only when it serves malloc; "glibc malloc (jemalloc loaded but not serving
# malloc)" must fail too.
case "$version" in
  *", jemalloc "[0-9]*) echo "$version" ;;
  *) echo "containers: the worker image does not run on jemalloc: $version" >&2; exit 1 ;;
esac

echo "== $jobs jobs; worker3 gets SIGTERM mid-load"
/usr/bin/python3 scripts/containers-check.py jobs "$jobs" "$out/jobs.jsonl"
$docker run --rm --network host --read-only --user 10001:10001 \
  -v "$PWD/docker/worker.host.yaml:/etc/apns-worker/worker.yaml:ro" -v "$PWD/$out/jobs.jsonl:/jobs.jsonl:ro" \
  apns-worker:dev publish --config /etc/apns-worker/worker.yaml /jobs.jsonl > "$out/publish.log"
acked() { curl -sf "http://127.0.0.1:$1/metrics" | awk '$1 == "apns_jobs_acked_total" {printf "%d", $2}'; }
for _ in $(seq 600); do
  total=0
  for port in 9291 9292 9293; do total=$((total + $(acked "$port" || echo 0))); done
  [ "$total" -ge $((jobs / 3)) ] && break
  sleep 0.1
done
worker3=$("${compose[@]}" ps -q worker3)
in_flight=$(curl -sf http://127.0.0.1:9293/metrics | awk '$1 == "apns_jobs_in_flight" {printf "%d", $2}')
[ "${in_flight:-0}" -gt 0 ] || { echo "containers: worker3 holds no job: the load ended before the SIGTERM" >&2; exit 1; }
echo "SIGTERM to worker3 at $total acked, $in_flight jobs in its hands"
stop_started=$(date +%s.%N)
$docker stop -t 40 "$worker3" > /dev/null
stop_seconds=$(echo "$(date +%s.%N) - $stop_started" | bc)
exit_code=$($docker inspect -f '{{.State.ExitCode}}' "$worker3")
[ "$exit_code" = 0 ] || { echo "containers: worker3 exited $exit_code after SIGTERM" >&2; exit 1; }
# Read whole, then searched: `docker logs | grep -q` fails under pipefail when grep stops at the
# first match and docker logs, still writing, gets SIGPIPE (seen once, with the drain line early).
worker3_log=$($docker logs "$worker3" 2>&1)
grep -q '"draining' <<< "$worker3_log" || { echo "containers: worker3's log shows no drain" >&2; exit 1; }
echo "worker3 drained and exited 0 in ${stop_seconds}s"

summary=$(/usr/bin/python3 scripts/containers-check.py collect "$jobs" amqp://guest:guest@127.0.0.1:5771/ apns.results) \
  || { echo "containers: results incomplete: $summary" >&2; exit 1; }
echo "results: $summary"
duplicates=$(echo "$summary" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["duplicates"])')
[ "$duplicates" = 0 ] || { echo "containers: $duplicates duplicate results after a graceful stop" >&2; exit 1; }

echo "== a worker container's start-up"
start_started=$(date +%s.%N)
$docker start "$worker3" > /dev/null
wait_ready 9293
start_seconds=$(echo "$(date +%s.%N) - $start_started" | bc)
echo "worker3 ready ${start_seconds}s after docker start"

figures="| figure | value |
|---|---|
| \`apns-worker:dev\` image | $(mib apns-worker:dev) MiB |
| \`apns-mock:dev\` image (test only) | $(mib apns-mock:dev) MiB |
| base images (local stand-ins) | debian:bookworm-slim $(mib debian:bookworm-slim) MiB, apns-local/swift:6-bookworm $(mib apns-local/swift:6-bookworm) MiB, $([ "$APNS_RABBITMQ_VERSION" = 4.0 ] && echo "debian:trixie-slim $(mib debian:trixie-slim) MiB, ")$RABBITMQ_IMAGE $(mib "$RABBITMQ_IMAGE") MiB |
| the cluster's RabbitMQ (as each of the three nodes reports it) | $release |
| both images built this run (release, static Swift stdlib; $([ -n "${CONTAINERS_COLD_BUILD:-}" ] && echo "no build cache" || echo "BuildKit's cache from earlier runs reused")) | ${build_seconds} s |
| \`up -d\` to all three workers ready (cluster formation included) | $(printf %.1f "$stack_seconds") s |
| one worker container: \`docker start\` to \`/health/ready\` | $(printf %.1f "$start_seconds") s |
| SIGTERM mid-load to exit 0, draining $in_flight jobs (APNs answering in 1 s) | $(printf %.1f "$stop_seconds") s |
| jobs / results / duplicates | $jobs / $(echo "$summary" | /usr/bin/python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["results"], "/", s["duplicates"], "; by worker", s["by_worker"])') |

Measured $(date -u +%Y-%m-%d) by \`make containers\` on $(nproc) cores."
if [ "$APNS_RABBITMQ_VERSION" = 4.0 ]; then
  /usr/bin/python3 - "$figures" <<'PY'
import re, sys
path = "docs/deployment.md"
text = open(path).read()
block = "<!-- containers:begin (make containers writes this block) -->\n" + sys.argv[1] + "\n<!-- containers:end -->"
text = re.sub(r"<!-- containers:begin.*?<!-- containers:end -->", lambda _: block, text, flags=re.S)
open(path, "w").write(text)
PY
else
  echo "(RabbitMQ $APNS_RABBITMQ_VERSION: docs/deployment.md keeps the figures of the 4.0 cluster it ships with)"
fi
echo "$figures"
echo "containers: passed"
