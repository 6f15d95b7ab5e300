#!/usr/bin/env python3
"""Publishes jobs with AMQP properties the project's own client refuses to write (it checks what it
sends), for the hostile-input fault scenario: bytes that are not UTF-8 in short strings and table keys,
header tables nested thousands deep, forged worker headers, sender-selected routing headers.

usage: hostile_publish.py AMQP_URL EXCHANGE ROUTING_KEY < cases.json
cases.json: [{"case": NAME, "body": BASE64}, ...]; prints how many were confirmed.
"""
import base64
import json
import sys

import pika


def nested(depth):
    value = "bottom"
    for level in range(depth):
        value = {"t": value} if level % 2 == 0 else [value]
    return value


BAD = b"\xff" * 255

PROPERTIES = {
    "bad-utf8-message-id": lambda: pika.BasicProperties(message_id=BAD, delivery_mode=2),
    "bad-utf8-reply-to": lambda: pika.BasicProperties(reply_to=b"\xfe" * 255, delivery_mode=2),
    "bad-utf8-header-key": lambda: pika.BasicProperties(headers={BAD: "x"}, delivery_mode=2),
    "bad-utf8-names": lambda: pika.BasicProperties(type=BAD, app_id=BAD, content_type=BAD, delivery_mode=2),
    "deep-headers": lambda: pika.BasicProperties(headers={"deep": nested(3000)}, delivery_mode=2),
    "forged-retry-attempt": lambda: pika.BasicProperties(headers={"retry-attempt": 2**62, "retry-deferred": -5}, delivery_mode=2),
    "forged-published-at": lambda: pika.BasicProperties(headers={"published-at": -(2**63)}, delivery_mode=2),
    "cc-header": lambda: pika.BasicProperties(headers={"CC": ["not-a-queue"], "BCC": ["nor-this"]}, delivery_mode=2),
    "bytes-header": lambda: pika.BasicProperties(headers={"blob": bytes(range(256)) * 100}, delivery_mode=2),
    "bom-with-message-id": lambda: pika.BasicProperties(message_id="bom-with-message-id", delivery_mode=2),
}


def main():
    url, exchange, routing_key = sys.argv[1:4]
    sys.setrecursionlimit(100_000)
    cases = json.load(sys.stdin)
    connection = pika.BlockingConnection(pika.URLParameters(url))
    channel = connection.channel()
    channel.confirm_delivery()
    for case in cases:
        # With confirms on, a refused or unroutable publish raises here.
        channel.basic_publish(exchange, routing_key, base64.b64decode(case["body"]), PROPERTIES[case["case"]](), mandatory=True)
    connection.close()
    print(len(cases))


if __name__ == "__main__":
    main()
