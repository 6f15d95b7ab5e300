#!/usr/bin/env python3
"""Writes the fuzzers' seed corpus (Fuzz/Corpus/<fuzzer>/): small inputs that reach every branch the
fuzzers should start from. The files are committed; this script is how they were made (the JWT
signatures differ from run to run, ECDSA being randomised).

  python3 scripts/make-fuzz-seeds.py        (from the checkout's root; needs pika and the openssl CLI)
  python3 scripts/make-fuzz-seeds.py amqp-frames      (only the AMQP frame seeds, from the recordings)
"""
import base64
import datetime
import json
import os
import subprocess

import pika

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
TOKEN = "ab" * 32


def write(fuzzer, name, data):
    folder = os.path.join(ROOT, "Fuzz", "Corpus", fuzzer)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as handle:
        handle.write(data if isinstance(data, bytes) else data.encode())


def job_seeds():
    valid = f'"device_token":"{TOKEN}","topic":"com.example.app","payload":{{"aps":{{"alert":"hi"}}}}'
    seeds = {
        "full": '{"id":"job-1","device_token":"%s","topic":"com.example.app.voip","push_type":"voip","priority":5,'
        '"expiration":1800000000,"collapse_id":"c1","apns_id":"123e4567-e89b-42d3-a456-426614174000",'
        '"payload":{"aps":{"alert":{"title":"t","body":"b"},"badge":1.5},"k":[1,"x",null,true]},'
        '"credential":"team-a","environment":"development","deadline":1900000000.5}' % TOKEN,
        "minimal": "{\"id\":7,%s}" % valid,
        "escapes": '{"id":"e\\u00e9\\ud83d\\ude00","device_t\\u006fken":"%s","topic":"com.example.app","pay\\u006coad":{"a":"\\n\\t\\""}}' % TOKEN,
        "duplicate-key": "{\"id\":\"d\",%s,\"topic\":\"x\"}" % valid,
        "crlf-collapse": "{\"id\":\"c\",%s,\"collapse_id\":\"a\\r\\nb\"}" % valid,
        "crlf-id": "{\"id\":\"a\\r\\nb\",%s}" % valid,
        "bad-topic": '{"id":"t","device_token":"%s","topic":"com.ex ample","payload":{}}' % TOKEN,
        "numbers": "{\"id\":\"n\",%s,\"priority\":1e400}" % valid,
        "big-int": "{\"id\":99999999999999999999,%s}" % valid,
        "deep": "{\"id\":\"deep\",%s,\"x\":%s%s}" % (valid, "[" * 70, "]" * 70),
        "wrong-types": '{"id":[1],"device_token":12,"topic":null,"payload":"x","priority":"10"}',
        "truncated": '{"id":"cut","device_token":"ab',
        "array": '["not","an","object"]',
        "empty": "",
        "multicast": '{"id":"m","device_tokens":["%s","%s","zz",7,"%s"],"topic":"com.example.app","payload":{"aps":{}},"results":"per_token"}' % (TOKEN, TOKEN.upper(), TOKEN),
        "broadcast": '{"id":"b","channel_id":"dHN0LTEyMzQ1Njc4OTAxMjM0NTY=","bundle_id":"com.example.app","expiration":0,"payload":{"aps":{"event":"update"}}}',
        "channel-create": '{"id":"c","channel_action":"create","topic":"com.example.app.push-type.liveactivity","message_storage_policy":1}',
    }
    for name, text in seeds.items():
        write("job-decoder", name, text)
    write("job-decoder", "bad-utf8", b'{"id":"u","payload":{"a":"\xc3\x28"}}')
    write("job-decoder", "bom", b"\xef\xbb\xbf{\"id\":\"b\"}")
    write("job-decoder", "message-id", b"\x00mid-1\n{" + valid.encode() + b"}")
    write("job-decoder", "message-id-bad-utf8", b"\x00" + b"\xff" * 200 + b"\n{" + valid.encode() + b"}")


def jwt(kid, iss, iat):
    header = base64.urlsafe_b64encode(json.dumps({"alg": "ES256", "kid": kid}, separators=(",", ":")).encode()).rstrip(b"=")
    claims = base64.urlsafe_b64encode(json.dumps({"iss": iss, "iat": iat}, separators=(",", ":")).encode()).rstrip(b"=")
    signing_input = header + b"." + claims
    key = os.path.join(ROOT, "Tests", "Fixtures", "keys", "AuthKey_TESTKEY001.p8")
    der = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key], input=signing_input, capture_output=True, check=True).stdout
    # DER SEQUENCE { INTEGER r, INTEGER s } to JOSE's raw r||s, 32 bytes each.
    index = 2 if der[1] < 0x80 else 3
    parts = []
    for _ in range(2):
        length = der[index + 1]
        parts.append(der[index + 2:index + 2 + length].lstrip(b"\x00").rjust(32, b"\x00"))
        index += 2 + length
    return (signing_input + b"." + base64.urlsafe_b64encode(b"".join(parts)).rstrip(b"=")).decode()


def request_seeds():
    token = jwt("TESTKEY001", "TEAMID0001", 1_800_000_000)
    base = [":method: POST", f":path: /3/device/{TOKEN}", f"authorization: bearer {token}", "apns-topic: com.example.app"]
    body = '{"aps":{"alert":"hi"}}'
    seeds = {
        "accepted": base + ["apns-push-type: alert", "apns-priority: 10", "apns-id: 123e4567-e89b-42d3-a456-426614174000"],
        "voip": base[:3] + ["apns-topic: com.example.app.voip", "apns-push-type: voip", "apns-expiration: 0", "apns-collapse-id: c"],
        "other-team": base[:3] + ["apns-topic: com.example.other"],
        "old-token": base[:2] + [f"authorization: bearer {jwt('TESTKEY001', 'TEAMID0001', 1_799_990_000)}"] + base[3:],
        "wrong-issuer": base[:2] + [f"authorization: bearer {jwt('TESTKEY001', 'TEAMID9999', 1_800_000_000)}"] + base[3:],
        "bad-jwt": base[:2] + ["authorization: bearer eyJhbGciOiJFUzI1NiJ9.e30.AAAA"] + base[3:],
        "no-token": base[:2] + base[3:],
        "get": [":method: GET", f":path: /3/device/{TOKEN}"],
        "bad-path": [":method: POST", ":path: /4/device/x"],
        "duplicates": base + ["apns-topic: com.example.app"],
        "bad-values": base + ["apns-priority: 7", "apns-expiration: -1", "apns-id: nope", "apns-push-type: hologram"],
    }
    for name, lines in seeds.items():
        write("mock-validation", name, "\n".join(lines) + "\n\n" + body)
    write("mock-validation", "bad-payload", "\n".join(base) + "\n\n" + '{"aps":{"a":"\\ud800"}}')
    write("mock-validation", "large-payload", "\n".join(base) + "\n\n" + '{"a":"' + "x" * 4100 + '"}')


def nested(depth):
    value = "bottom"
    for level in range(depth):
        value = {"t": value} if level % 2 == 0 else [value]
    return value


def properties_seeds():
    seeds = {
        "empty": pika.BasicProperties(),
        "all": pika.BasicProperties(content_type="application/json", content_encoding="gzip", delivery_mode=2, priority=5,
                                    correlation_id="c-1", reply_to="replies", expiration="60000", message_id="m-1",
                                    timestamp=1_700_000_000, type="apns.result", user_id="guest", app_id="apns-worker",
                                    headers={"retry-attempt": 2, "last-error": "503 ServiceUnavailable", "flag": True,
                                             "list": [1, "a", False], "nested": {"k": {"n": 7}}}),
        "bad-utf8": pika.BasicProperties(message_id=b"\xff" * 255, reply_to=b"\xfe\xff", headers={b"\xff" * 200: b"\x00\xff"}),
        "deep": pika.BasicProperties(headers={"deep": nested(40)}),
        "x-death": pika.BasicProperties(headers={"x-death": [{"count": 1, "reason": "rejected", "queue": "apns.jobs",
                                                              "time": datetime.datetime(2026, 1, 1),
                                                              "exchange": "", "routing-keys": ["apns.jobs"]}]}),
        "cc": pika.BasicProperties(headers={"CC": ["a", "b"], "BCC": ["c"]}),
    }
    for name, properties in seeds.items():
        write("amqp-content", name, b"".join(properties.encode()))


def frames(recording):
    """The frames of a recording, each with its envelope."""
    offset = 0
    while offset + 7 <= len(recording):
        size = int.from_bytes(recording[offset + 3:offset + 7], "big")
        yield recording[offset:offset + 8 + size]
        offset += 8 + size


def frame_seeds():
    """Real broker traffic (Tests/Fixtures/amqp, scripts/record-amqp.py): each whole recording, one
    frame of each kind and method, and each delivery with its content frames."""
    for version in ["4.0", "3.10"]:
        with open(os.path.join(ROOT, "Tests", "Fixtures", "amqp", f"rabbitmq-{version}.bin"), "rb") as handle:
            recording = handle.read()
        write("amqp-frames", f"{version}-all", recording)
        seen, content = set(), b""
        for frame in frames(recording):
            kind = frame[0]
            key = (kind, frame[7:11] if kind == 1 else b"")
            if kind in (2, 3):
                content += frame
                continue
            if content:
                write("amqp-frames", f"{version}-content-{len(seen)}", content)
                content = b""
            if key not in seen:
                seen.add(key)
                name = f"method-{frame[7:11].hex()}" if kind == 1 else f"type-{kind}"
                write("amqp-frames", f"{version}-{name}", frame)
                if kind == 1 and frame[7:11] == bytes.fromhex("003c003c"):
                    content = frame


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["amqp-frames"]:
        frame_seeds()
    else:
        job_seeds()
        request_seeds()
        properties_seeds()
        frame_seeds()
