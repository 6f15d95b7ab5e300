#!/usr/bin/env python3
"""Writes N sample notification jobs as JSON lines, with a known mix of outcomes against the mock APNs.

The mock treats device tokens starting with "dead" as unregistered (410) and "bad0" as unknown (400);
everything else well-formed is a live device. Usage: scripts/demo-jobs.py N > jobs.jsonl
With --multicast J T: J multicast jobs of T tokens each (3% of them dead, 1% unknown) instead.
With --plain N PREFIX: N jobs to live devices, with ids PREFIX-0 … (the lanes step's backlog and urgent jobs).
"""
import json
import random
import sys
import uuid

if sys.argv[1:2] == ["--plain"]:
    for i in range(int(sys.argv[2])):
        print(json.dumps({"id": f"{sys.argv[3]}-{i}", "device_token": f"{i:064x}", "topic": "com.example.app", "payload": {"aps": {"alert": f"#{i}"}}}))
    sys.exit(0)
multicast = sys.argv[1:2] == ["--multicast"]
if multicast:
    count, tokens_per_job = int(sys.argv[2]), int(sys.argv[3])
else:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
rng = random.Random(20261121)


def token(prefix=""):
    return prefix + "".join(rng.choice("0123456789abcdef") for _ in range(64 - len(prefix)))


def alert(i):
    return {"aps": {"alert": {"title": "Order update", "body": f"Your order #{i} has shipped"}, "badge": 1, "sound": "default"}}


def multicast_token():
    roll = rng.random()
    return token("dead") if roll < 0.03 else token("bad0") if roll < 0.04 else token()


if multicast:
    for i in range(count):
        job_id = f"demo-multicast-{i:04d}-{uuid.UUID(int=rng.getrandbits(128)).hex[:8]}"
        tokens = [multicast_token() for _ in range(tokens_per_job)]
        print(json.dumps({"id": job_id, "device_tokens": tokens, "topic": "com.example.app", "payload": alert(i)}))
    sys.exit(0)

for i in range(count):
    job_id = f"demo-{i:06d}-{uuid.UUID(int=rng.getrandbits(128)).hex[:8]}"
    roll = rng.random()
    job = {"id": job_id, "device_token": token(), "topic": "com.example.app", "payload": alert(i)}
    if roll < 0.05:
        job["device_token"] = token("dead")  # 410 Unregistered: a token-cleanup service wants these
    elif roll < 0.08:
        job["device_token"] = token("bad0")  # 400 BadDeviceToken
    elif roll < 0.18:
        job["topic"] = "com.example.other"  # the second team's key
    elif roll < 0.23:
        job.update(topic="com.example.app.voip", push_type="voip", payload={"aps": {}, "call": {"from": "Ada"}})
    elif roll < 0.26:
        job.update(push_type="background", payload={"aps": {"content-available": 1}})
    elif roll < 0.28:
        job["credential"] = "legacy-cert"  # the certificate credential
    elif roll < 0.29:
        job["payload"] = {"aps": {"alert": "x" * 5000}}  # too large: failed + dead letter
    elif roll < 0.30:
        print("this line is not JSON")  # poison: dead letter
        continue
    elif roll < 0.31:
        job["topic"] = "com.unknown.app"  # no credential serves it
    print(json.dumps(job))
