#!/usr/bin/env python3
"""Reads the results of the demo's lanes step (JSON lines, in the order they arrived) and says where each
urgent job's result came among the bulk backlog's, with latencies. Usage: scripts/demo-lanes.py results.jsonl
"""
import json
import sys

results = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
bulk = sorted(r["latency_ms"] for r in results if not r.get("id", "").startswith("demo-urgent-"))
total_bulk = len(bulk)
answered_bulk = 0
for result in results:
    if result.get("id", "").startswith("demo-urgent-"):
        print(f"urgent job {result['id']}: {result['status']} in {result['latency_ms']} ms from publish, "
              f"with {total_bulk - answered_bulk:,} of {total_bulk:,} bulk jobs still unanswered")
    else:
        answered_bulk += 1
if bulk:
    print(f"bulk jobs: latency p50 {bulk[len(bulk) // 2]:,} ms, max {bulk[-1]:,} ms (they were queued before the urgent ones)")
