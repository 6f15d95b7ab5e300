#!/usr/bin/env bash
# The worker's instructions per job, counted by callgrind rather than timed: CPU time on this shared
# machine varies by a tenth between runs of one build, so a change worth 2% cannot be seen in it, while
# an instruction count repeated within 2.5% over three runs of one build (docs/decisions.md). Runs
# `apns-bench throughput` twice (SMALL and JOBS jobs, defaults 2,000 and 10,000) with the worker under
# `valgrind --tool=callgrind`; the difference of the two totals over the difference of the counts is
# the cost of one job without start-up's. Figures only,
# never pass/fail. Under valgrind the worker takes a few hundred jobs a second, so its batches are small
# and per-batch costs (system calls, wake-ups) weigh more than at full load: compare builds with it, do
# not read it as full-load CPU.
#   scripts/bench-instructions.sh [jobs] [small]       (APNS_INSTRUCTIONS_KEEP=DIR keeps the profiles there)
# APNS_INSTRUCTIONS_RUN names another apns-bench run taking --count, e.g. "multicast --tokens 100"
# (then the counts are notifications, and the figure is per notification).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${1:-10000}
small=${2:-2000}
out=.scratch/bench-instructions
mkdir -p "$out"
command -v valgrind > /dev/null || apt-get install -y -q valgrind > "$out/apt.log"
chmod 600 Tests/Fixtures/keys/*.p8 Tests/Fixtures/tls/client.p12 Tests/Fixtures/tls/client.key

for product in apns-bench apns-worker mock-apns; do
  swift build -c release --static-swift-stdlib --product "$product" > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
done
# apns-bench starts the worker and the mock found next to its own executable: the worker there is a
# wrapper that runs the real one under callgrind. Debian 12's valgrind (3.19) cannot read the DWARF 5
# the toolchain writes, so the copy it runs has no debug sections (its symbols stay).
bin=$(mktemp -d)
started_broker=false
cleanup() {
  rm -rf "$bin"
  if $started_broker; then scripts/rabbitmq.sh forget > /dev/null; fi
}
trap cleanup EXIT
cp .build/release/apns-bench .build/release/mock-apns "$bin/"
strip --strip-debug -o "$bin/apns-worker.real" .build/release/apns-worker
cat > "$bin/apns-worker" <<WRAPPER
#!/bin/sh
exec valgrind --tool=callgrind --callgrind-out-file=$bin/callgrind.out "$bin/apns-worker.real" "\$@"
WRAPPER
chmod +x "$bin/apns-worker"

if ! scripts/rabbitmq.sh status > /dev/null 2>&1; then scripts/rabbitmq.sh start > /dev/null; started_broker=true; fi
eval "$(scripts/rabbitmq.sh env)"

# Instructions the worker executed over one `apns-bench throughput --count N`.
instructions() {
  rm -f "$bin/callgrind.out"
  # shellcheck disable=SC2086 # the run is a command and its options, split on purpose
  "$bin/apns-bench" ${APNS_INSTRUCTIONS_RUN:-throughput} --count "$1" > "$out/throughput-$1.log" 2>&1 || { tail -20 "$out/throughput-$1.log"; exit 1; }
  if [ -n "${APNS_INSTRUCTIONS_KEEP:-}" ]; then mkdir -p "$APNS_INSTRUCTIONS_KEEP"; cp "$bin/callgrind.out" "$APNS_INSTRUCTIONS_KEEP/callgrind-$1.out"; fi
  # awk reads to the end: leaving early would fail the pipeline (SIGPIPE under pipefail).
  callgrind_annotate "$bin/callgrind.out" 2> /dev/null | awk '/PROGRAM TOTALS/ && !found { gsub(",", "", $1); print $1; found = 1 }'
}

large=$(instructions "$jobs")
little=$(instructions "$small")
echo "worker instructions: $large over $jobs jobs, $little over $small jobs"
echo "per job (start-up excluded): $(( (large - little) / (jobs - small) ))"
