#!/usr/bin/env bash
# Installs the Debian packages this project needs, if any are missing: the C libraries' headers (AMQP,
# HTTP/2, TLS, and jemalloc for the worker's release build), RabbitMQ for the tests and the demo, h2load
# for the benchmarks, Prometheus and promtool for the alert rules' tests, tinyproxy for the proxy tests. Safe to run again; quiet when everything is
# there. Needs root (or sudo) only when something is missing.
set -euo pipefail
packages=(pkg-config ca-certificates openssl curl python3 python3-pika python3-jsonschema python3-yaml shellcheck yamllint librabbitmq-dev libnghttp2-dev libssl-dev libjemalloc-dev rabbitmq-server nghttp2-client prometheus tinyproxy)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  # Keep the package's own service from starting: tests run a private node on their own port.
  guard=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d > /dev/null
    $sudo chmod +x /usr/sbin/policy-rc.d
    guard=/usr/sbin/policy-rc.d
  fi
  trap '[ -z "$guard" ] || $sudo rm -f "$guard"' EXIT
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi

if ! command -v swift > /dev/null; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "install-deps: swift is at /opt/swift/usr/bin; add it to PATH" >&2
  else
    echo "install-deps: Swift 6.2 or newer is required (https://swift.org/install)" >&2
  fi
  exit 1
fi
