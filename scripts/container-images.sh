#!/usr/bin/env bash
# Local stand-ins for the base images docker/Dockerfile and docker/compose.host.yaml name, built from
# Debian packages only: this machine reaches Debian's archive but no image registry. Each is built
# once and kept (delete it with `docker rmi` to rebuild):
#   debian:bookworm-slim                 debootstrap --variant=minbase, imported (the Dockerfile's RUNTIME_IMAGE)
#   apns-local/swift:6-bookworm          that + /opt/swift (this machine's toolchain) + its build deps, and
#                                        the local package copies with the git rule that points GitHub at
#                                        them (SwiftPM resolves Package.swift's dependencies through it)
# and the RabbitMQ image of APNS_RABBITMQ_VERSION (the setting scripts/rabbitmq-version.sh reads; here
# 4.0 unless it says 3.10), Debian's rabbitmq-server configured from the environment by
# docker/rabbitmq-entrypoint.sh (rebuilt when that file changes):
#   apns-local/rabbitmq:4.0-trixie       debian:trixie-slim (debootstrap, as above) + Debian 13's (4.0.5, Erlang 27)
#   apns-local/rabbitmq:3.10-bookworm    debian:bookworm-slim + Debian 12's (3.10.8, Erlang 25)
# The real Dockerfile builds unchanged: `--build-arg SWIFT_IMAGE=apns-local/swift:6-bookworm`.
#   scripts/container-images.sh          (needs a running dockerd; scripts/containers.sh starts one)
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's client: it builds with the engine's own BuildKit (a newer client without buildx refuses).
# Builds use the host network: the engine runs without a bridge (dockerd --bridge=none).
docker=/usr/bin/docker
export DOCKER_BUILDKIT=1
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
swift_root=${SWIFT_ROOT:-/opt/swift}
packages_root=${SWIFT_PACKAGES:-/opt/swift-packages}

have() { $docker image inspect "$1" > /dev/null 2>&1; }

rabbitmq_version=${APNS_RABBITMQ_VERSION:-4.0}
case $rabbitmq_version in
  4.0|3.10) ;;
  *) echo "container-images: APNS_RABBITMQ_VERSION is 4.0 or 3.10, not $rabbitmq_version" >&2; exit 2 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# debian:SUITE-slim: Debian SUITE (bookworm, trixie) from debootstrap, made like the official slim image.
slim_image() {
  if have "debian:$1-slim"; then return; fi
  echo "container-images: debian:$1-slim from debootstrap ($mirror)"
  local root=$work/rootfs-$1
  debootstrap --variant=minbase "$1" "$root" "$mirror" > "$work/debootstrap-$1.log" 2>&1 \
    || { tail -n 20 "$work/debootstrap-$1.log" >&2; exit 1; }
  # What the official slim image leaves out, now and in every later install: package lists, apt's
  # caches, docs, man pages and translations (the same dpkg and apt settings it ships).
  cat > "$root/etc/dpkg/dpkg.cfg.d/docker" <<'CONF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
CONF
  cat > "$root/etc/apt/apt.conf.d/docker-clean" <<'CONF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
CONF
  chroot "$root" apt-get clean
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/usr/share/doc/* "$root"/usr/share/man/* \
    "$root"/usr/share/locale/* "$root"/var/log/*.log
  # Like the official image: no service starts when a package is installed.
  printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
  chmod +x "$root/usr/sbin/policy-rc.d"
  tar -C "$root" -c . | $docker import --change 'CMD ["bash"]' - "debian:$1-slim" > /dev/null
}

slim_image bookworm

if ! have apns-local/swift:6-bookworm; then
  echo "container-images: apns-local/swift:6-bookworm from $swift_root"
  mkdir -p "$work/swift"
  # Hard links: the context is sent to the engine, not copied twice on disk.
  cp -al "$swift_root" "$work/swift/toolchain" 2> /dev/null || cp -a "$swift_root" "$work/swift/toolchain"
  cp -al "$packages_root" "$work/swift/packages" 2> /dev/null || cp -a "$packages_root" "$work/swift/packages"
  cat > "$work/swift/Dockerfile" <<'DOCKERFILE'
FROM debian:bookworm-slim
# What the Swift toolchain needs at build time on bookworm (swift.org's Dockerfile for bookworm).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      binutils ca-certificates git gnupg2 libc6-dev libcurl4-openssl-dev libedit2 libgcc-12-dev \
      libpython3-dev libsqlite3-0 libstdc++-12-dev libxml2-dev libncurses-dev libz3-dev pkg-config \
      tzdata unzip zlib1g-dev \
 && rm -rf /var/lib/apt/lists/*
COPY toolchain /opt/swift
COPY packages /opt/swift-packages
# The rule this machine's git has: GitHub addresses resolve to the local package copies.
RUN git config --system url./opt/swift-packages/.insteadOf https://github.com/ \
 && git config --system --add url./opt/swift-packages/.insteadOf git@github.com: \
 && git config --system --add safe.directory '*'
ENV PATH=/opt/swift/usr/bin:$PATH
DOCKERFILE
  $docker build -q --network host -t apns-local/swift:6-bookworm "$work/swift" > /dev/null
fi

# apns-local/rabbitmq:VERSION-SUITE: Debian SUITE's rabbitmq-server (and PACKAGES) on debian:SUITE-slim.
rabbitmq_image() {
  local version=$1 suite=$2 tag=apns-local/rabbitmq:$1-$2 entrypoint
  shift 2
  entrypoint=$(sha256sum docker/rabbitmq-entrypoint.sh | cut -c1-16)
  if [ "$($docker image inspect -f '{{index .Config.Labels "apns-local.entrypoint"}}' "$tag" 2> /dev/null)" = "$entrypoint" ]; then return; fi
  slim_image "$suite"
  echo "container-images: $tag from Debian's rabbitmq-server"
  mkdir -p "$work/rabbitmq-$version"
  cp docker/rabbitmq-entrypoint.sh "$work/rabbitmq-$version/entrypoint.sh"
  cat > "$work/rabbitmq-$version/Dockerfile" <<DOCKERFILE
FROM debian:$suite-slim
# The user the package would make, with fixed ids, so compose can give it its tmpfs (uid=999).
RUN groupadd --system --gid 999 rabbitmq \\
 && useradd --system --uid 999 --gid 999 --home-dir /var/lib/rabbitmq --no-create-home --shell /bin/false rabbitmq \\
 && apt-get update \\
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends rabbitmq-server $* \\
 && rm -rf /var/lib/apt/lists/*
COPY --chmod=0755 entrypoint.sh /usr/local/bin/rabbitmq-entrypoint
LABEL apns-local.entrypoint=$entrypoint
# RabbitMQ's own scripts first: Debian's /usr/sbin wrappers write logs under /var/log (read-only here).
ENV PATH=/usr/lib/rabbitmq/bin:\$PATH
# That user; its home (/var/lib/rabbitmq) holds the cookie and the node's state.
USER rabbitmq
ENTRYPOINT ["rabbitmq-entrypoint"]
DOCKERFILE
  $docker build -q --network host -t "$tag" "$work/rabbitmq-$version" > /dev/null
}

if [ "$rabbitmq_version" = 4.0 ]; then
  # procps: 4.0's rabbitmqctl wait and stop follow the node's OS process with ps (trixie's minbase has none).
  rabbitmq_image 4.0 trixie procps
else
  rabbitmq_image 3.10 bookworm
fi

$docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E '^(debian:[a-z]+-slim|apns-local/)' | sort
