# Every target installs what it needs first (scripts/install-deps.sh), so each works on a fresh
# Debian 12 machine as root.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: deps build unit test demo bench faults faults-cluster containers fuzz sanitize mock fixtures clean

deps:
	@scripts/install-deps.sh

build: deps
	swift build --explicit-target-dependency-import-check error

## The I/O-free tier alone: no broker (port 1 refuses anything that slipped through), no sockets, no
## processes; suites that need them carry `.io` and are skipped.
unit: deps
	APNS_TEST_TIER=unit APNS_RABBITMQ_PORT=1 swift test --explicit-target-dependency-import-check error

## The whole test suite against a private RabbitMQ; non-zero exit on any failure.
test: deps
	scripts/test.sh

## The main job: RabbitMQ + mock APNs + a worker, a few thousand sample jobs, a summary; stops what it started.
demo: deps
	scripts/demo.sh

## Figures only (never pass/fail): the worker against the broker's limit, latency, scale-out, memory,
## the APNs client against h2load, token signing, a CPU profile. Regenerates docs/benchmarks.md and its plots.
bench: deps
	scripts/bench.sh

## The fault-injection suite with real processes; writes the table in docs/reliability.md.
faults: deps
	scripts/faults.sh

## The cluster fault tier: a three-node RabbitMQ cluster on loopback, nodes killed, stopped and
## restarted under load; rows in docs/reliability.md (scripts/faults-cluster.sh).
faults-cluster: deps
	scripts/faults-cluster.sh

## The images of docker/Dockerfile built (on local base images made from Debian packages) and run as a
## fleet on the host's network: a three-node cluster, the mock, three workers; one stopped with SIGTERM
## mid-load; every result checked; non-root and read-only checked (scripts/containers.sh).
containers: deps
	scripts/containers.sh

## libFuzzer (with AddressSanitizer) on the job decoder, the mock's validation, AMQP header decoding and
## the AMQP client's inbound frame decoder,
## FUZZ_SECONDS each (default 120) from the committed seeds; a crash fails it (see scripts/fuzz.sh).
fuzz: deps
	scripts/fuzz.sh

## ThreadSanitizer on the concurrent suites, AddressSanitizer on the protocol cores; any report fails it.
sanitize: deps
	scripts/sanitize.sh

## The mock APNs server on 127.0.0.1:2197 with the test fixtures (Ctrl-C to stop).
mock: deps
	swift build -c release --static-swift-stdlib --product mock-apns
	.build/release/mock-apns --verbose

## Regenerate the test-only keys and certificates (they are committed; tests use the committed copies).
fixtures:
	scripts/make-test-fixtures.sh

clean:
	rm -rf .build .build-fuzz .build-thread .build-address .scratch
	root=$(CURDIR) && source scripts/rabbitmq-version.sh && rabbitmq_forget "$(CURDIR)"
