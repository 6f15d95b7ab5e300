#!/usr/bin/env bash
# The sanitizer runs (`make sanitize`), each in a build folder of its own, against a private RabbitMQ:
#  - ThreadSanitizer on the suites that exercise threads, continuations and @unchecked Sendable types:
#    the AMQP client (its event loop, driver and continuations), the APNs client (event loops,
#    APNsConnection), the mock server, TLS keys shared across threads, the worker in-process, and the
#    log redaction's patterns, shared by every thread that logs.
#  - AddressSanitizer (with LeakSanitizer) on the protocol cores: JSON, HTTP/2, TLS, TLS with HTTP/2 in
#    memory (Transport), AMQP encoding and decoding (rabbitmq-c as the codec, on recorded broker
#    frames), APNs requests and responses, the mock's validation, and the fuzz corpus.
# A report fails the run. Suppressions, each with its reason, are in Tests/Sanitizers/.
#   scripts/sanitize.sh [thread|address]      one of them (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/broker-session.sh
source scripts/broker-session.sh

kinds=("$@")
if [ ${#kinds[@]} -eq 0 ]; then kinds=(thread address); fi
root=$(pwd)
status=0
for kind in "${kinds[@]}"; do
  case "$kind" in
    thread)
      # The multicast and lane suites: senders are chains of callbacks across the event loops and
      # their wait tasks (about a minute more).
      filter='AMQPTests|APNsClientTests|MockAPNsTests|TLSTests|WorkerTests\.(WorkerFlowTests|WorkerObservabilityTests|JobSlotsTests|JobsAtAPNsTests|UnsettledOutcomesTests|RedactorTests|MulticastFlowTests|MulticastFaultTests|MulticastSendersTests|SendPermitsTests|LaneFlowTests|UrgentLatenciesTests)'
      # ThreadSanitizer runs everything about ten times slower: tests stretch their short timeouts.
      export APNS_TEST_TIME_SCALE=10
      export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 suppressions=$root/Tests/Sanitizers/tsan.supp"
      ;;
    address)
      filter='JSONTests|HTTP2Tests|TLSTests|TransportTests|AMQPTests\.(EncodingCheckTests|ContentAssemblerTests|PublishConfirmsTests|RecentStringsTests|AMQPUnencodableTests|AMQPPublishTests|CodecTests|AMQPLoopTests)|APNsCoreTests|MockAPNsTests|FuzzingTests|WorkerTests\.(JobDecoderTests|JobBoundaryTests|CarriableCopyTests|LogHandlerTests)'
      export ASAN_OPTIONS="detect_leaks=1 halt_on_error=0"
      export LSAN_OPTIONS="suppressions=$root/Tests/Sanitizers/lsan.supp"
      ;;
    *) echo "sanitize: unknown kind $kind (thread or address)" >&2; exit 2 ;;
  esac
  log=.scratch/sanitize-$kind.log
  mkdir -p .scratch
  echo "== $kind sanitizer (log: $log)"
  swift build --build-tests --scratch-path ".build-$kind" --sanitize="$kind" 2>&1 | grep -v "Cannot export local symbol" | tail -3
  set +e
  swift test --skip-build --scratch-path ".build-$kind" --sanitize="$kind" --filter "$filter" > "$log" 2>&1
  result=$?
  set -e
  reports=$(grep -c -E "^(WARNING: ThreadSanitizer|==[0-9]+==ERROR: (AddressSanitizer|LeakSanitizer))" "$log" || true)
  grep -E "Test run with|Executed [0-9]+ tests" "$log" | tail -2 || true
  echo "$kind sanitizer: test exit $result, $reports reports"
  if [ "$result" -ne 0 ] || [ "$reports" -ne 0 ]; then
    status=1
    grep -n -A 30 -E "^(WARNING: ThreadSanitizer|==[0-9]+==ERROR)" "$log" | head -120 || true
  fi
done
exit $status
