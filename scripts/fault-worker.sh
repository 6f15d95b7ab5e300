# shellcheck shell=bash
# Sourced by the fault tiers (faults.sh, faults-cluster.sh): builds the `apns-worker` their scenarios
# start and sets `worker` to the environment that names it, for `env "${worker[@]}" swift test …`.
# The release build by default, as the image and `make bench` run it: it alone is linked with jemalloc,
# and it gets through jobs several times faster than the debug build, which changes what a fault meets
# (a 3.10 broker's stop once found every job answered). APNS_FAULTS_WORKER=debug runs the debug build
# beside the tests instead. Given to the one test run only, never exported, so that no later
# `swift test` in the shell runs a stale binary in place of the one built beside the tests.
# shellcheck disable=SC2034 # read by the script that sources this one
worker=()
case "${APNS_FAULTS_WORKER:-release}" in
  release)
    swift build -c release --static-swift-stdlib --product apns-worker
    worker=("APNS_WORKER_BINARY=$PWD/.build/release/apns-worker")
    .build/release/apns-worker version ;;
  debug) ;;
  *) echo "APNS_FAULTS_WORKER must be release or debug, not $APNS_FAULTS_WORKER" >&2; exit 2 ;;
esac
