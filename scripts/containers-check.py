#!/usr/bin/env python3
"""The jobs and the result check of `make containers` (scripts/containers.sh).

  containers-check.py jobs N FILE          writes N jobs (JSON lines): 90 % to team one's topic, 5 % to
                                           team two's, 5 % to unregistered tokens (the mock rejects them)
  containers-check.py collect N URL QUEUE  consumes QUEUE until every one of the N jobs has a result (or
                                           nothing came for 30 s), prints a JSON summary, exits 1 unless
                                           each job got exactly the result its token calls for
"""
import json
import random
import sys
import time

import pika


def job(index):
    kind = index % 20
    if kind == 19:
        token, topic = "dead" + "".join(random.choice("0123456789abcdef") for _ in range(60)), "com.example.app"
    else:
        token = "a" + "".join(random.choice("0123456789abcdef") for _ in range(63))
        topic = "com.example.other" if kind == 18 else "com.example.app"
    return {"id": f"container-{index}", "device_token": token, "topic": topic, "payload": {"aps": {"alert": f"job {index}"}}}


def expected_status(index):
    return "rejected" if index % 20 == 19 else "delivered"


def write_jobs(count, path):
    with open(path, "w") as file:
        for index in range(count):
            file.write(json.dumps(job(index)) + "\n")


def collect(count, url, queue):
    connection = pika.BlockingConnection(pika.URLParameters(url))
    channel = connection.channel()
    channel.basic_qos(prefetch_count=500)
    results = []
    last = time.monotonic()
    wanted = {f"container-{index}" for index in range(count)}
    seen = set()
    for method, _properties, body in channel.consume(queue, inactivity_timeout=1):
        if method is not None:
            results.append(json.loads(body))
            seen.add(results[-1].get("id"))
            channel.basic_ack(method.delivery_tag)
            last = time.monotonic()
        if wanted <= seen or time.monotonic() - last > 30:
            break
    channel.cancel()
    connection.close()
    by_id = {}
    for result in results:
        by_id.setdefault(result.get("id"), []).append(result)
    wrong = [i for i in range(count) if any(r.get("status") != expected_status(i) for r in by_id.get(f"container-{i}", []))]
    summary = {
        "jobs": count,
        "results": len(results),
        "jobs_with_a_result": len(wanted & seen),
        "missing": len(wanted - seen),
        "duplicates": len(results) - len(seen),
        "wrong_status": len(wrong),
        "by_status": {s: sum(1 for r in results if r.get("status") == s) for s in sorted({r.get("status") for r in results})},
        "by_worker": {w: sum(1 for r in results if r.get("worker") == w) for w in sorted({r.get("worker") for r in results})},
    }
    print(json.dumps(summary))
    return summary["missing"] == 0 and summary["wrong_status"] == 0


if __name__ == "__main__":
    if sys.argv[1] == "jobs":
        write_jobs(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "collect":
        sys.exit(0 if collect(int(sys.argv[2]), sys.argv[3], sys.argv[4]) else 1)
    else:
        sys.exit(__doc__)
