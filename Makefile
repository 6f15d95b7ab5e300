# Every target installs what it needs first (scripts/install-deps.sh), so each works on a fresh
# Debian 12 machine as root.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

.PHONY: deps build test bench fixtures clean

deps:
	@scripts/install-deps.sh

build: deps
	swift build

## The whole test suite against a private RabbitMQ; non-zero exit on any failure.
test: deps
	scripts/test.sh

## Figures only (never pass/fail): provider-token signing and verification cost.
bench: deps
	swift build -c release --product apns-bench
	.build/release/apns-bench jwt

## Regenerate the test-only keys and certificates (they are committed; tests use the committed copies).
fixtures:
	scripts/make-test-fixtures.sh

clean:
	rm -rf .build .scratch
