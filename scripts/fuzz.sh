#!/usr/bin/env bash
# The fuzzers (`make fuzz`): libFuzzer with AddressSanitizer on the job decoder, the mock's request
# validation, AMQP content-header decoding and the AMQP client's inbound frame decoder, each for
# FUZZ_SECONDS (default 120) from the committed seeds in Fuzz/Corpus/<fuzzer>/. What a run learns stays in .scratch/fuzz/<fuzzer>/ (used again next
# time); a crash is written to .scratch/fuzz/crashes/ and fails the run: copy it to
# Fuzz/Regressions/<fuzzer>/, where `make test` replays it for good (Tests/FuzzingTests).
#   FUZZ_SECONDS=600 scripts/fuzz.sh            longer runs
#   scripts/fuzz.sh job-decoder                 one fuzzer
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/opt/swift/usr/bin
scripts/install-deps.sh
seconds=${FUZZ_SECONDS:-120}
fuzzers=("$@")
if [ ${#fuzzers[@]} -eq 0 ]; then fuzzers=(job-decoder mock-validation amqp-content amqp-frames); fi

# APNS_FUZZ=1 declares the fuzz executables (Package.swift); a scratch path of their own keeps the
# instrumented build apart from the normal one. The sanitizers go in one -sanitize= list: given twice
# (--sanitize=fuzzer --sanitize=address), swiftc keeps only one of them and the code is left without
# coverage instrumentation. --sanitize=fuzzer stays so SwiftPM lets libFuzzer provide `main`.
for fuzzer in "${fuzzers[@]}"; do
  APNS_FUZZ=1 swift build --scratch-path .build-fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --product "fuzz-$fuzzer" 2>&1 \
    | grep -v "Cannot export local symbol" || true
  test -x ".build-fuzz/debug/fuzz-$fuzzer" || { echo "fuzz: fuzz-$fuzzer did not build" >&2; exit 1; }
done

mkdir -p .scratch/fuzz/crashes
summary=()
status=0
for fuzzer in "${fuzzers[@]}"; do
  work=".scratch/fuzz/$fuzzer"
  mkdir -p "$work"
  echo "== fuzz-$fuzzer for ${seconds}s"
  log=".scratch/fuzz/$fuzzer.log"
  marker=".scratch/fuzz/$fuzzer.started"
  touch "$marker"  # crash files newer than this are this run's
  # The first corpus folder is where libFuzzer adds what it finds; the committed seeds are only read.
  set +e
  ".build-fuzz/debug/fuzz-$fuzzer" -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=10 -print_final_stats=1 \
    -artifact_prefix=".scratch/fuzz/crashes/$fuzzer-" "$work" "Fuzz/Corpus/$fuzzer" > "$log" 2>&1
  result=$?
  set -e
  runs=$(grep -o "stat::number_of_executed_units: *[0-9]*" "$log" | grep -o "[0-9]*$" || echo "?")
  coverage=$(grep -o "cov: [0-9]*" "$log" | tail -1 | grep -o "[0-9]*$" || echo "?")
  crashes=$(find .scratch/fuzz/crashes -name "$fuzzer-*" -newer "$marker" 2>/dev/null | wc -l)
  summary+=("fuzz-$fuzzer: $runs executions, coverage $coverage edges, corpus $(find "$work" -type f | wc -l) + $(find "Fuzz/Corpus/$fuzzer" -type f | wc -l) seeds, exit $result, crash files $crashes")
  if [ "$result" -ne 0 ]; then
    status=1
    tail -40 "$log"
  fi
done
echo
printf '%s\n' "${summary[@]}"
exit $status
