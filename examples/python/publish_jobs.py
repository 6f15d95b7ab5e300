#!/usr/bin/env python3
"""Publish sample notification jobs to apns-worker over RabbitMQ, and optionally wait for their results.

A starting point to copy into a service that sends push notifications. It shows the parts that
matter for not losing a job:

- publisher confirms (``channel.confirm_delivery()``): each publish returns only once the broker
  has taken responsibility for the job, and raises when it has not;
- ``mandatory=True``: a job that no queue would receive comes back as ``UnroutableError``
  instead of being dropped silently;
- persistent messages (``delivery_mode=2``) with ``message_id`` set to the job id;
- with ``--wait-results``: an exclusive reply queue named in each job's ``reply_to``, on which the
  worker publishes the job's result with ``correlation_id`` = the job id.

The job and result formats are described in docs/messages.md and schemas/*.schema.json.

Requirements: Python 3.9 or later (written for 3.11, Debian 12's) and pika 1.x, nothing else. On Debian/Ubuntu ``apt-get install
python3-pika`` (then run it with the system ``/usr/bin/python3``); anywhere else ``pip install pika``.

Examples::

    # 10 jobs to the default topology, to the sample token, and wait for the 10 results
    ./publish_jobs.py --count 10 --topic com.example.app --wait-results

    # against another broker (or set APNS_AMQP_URL), to a real device
    ./publish_jobs.py --url amqps://user:secret@rabbit.internal:5671/push \\
        --device-token 3f1c...a1b3 --topic com.acme.app --count 1 --wait-results

Exit status: 0 when every job was confirmed (and, with --wait-results, every result arrived, whatever
its status); 1 otherwise.
"""

import argparse
import json
import os
import sys
import time
import urllib.parse
import uuid

import pika
from pika.exceptions import AMQPConnectionError, ChannelClosedByBroker, NackError, UnroutableError

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/"
# Any well-formed token: the mock APNs (make mock) accepts every token except those starting with
# "dead" (410 Unregistered) or "bad0" (400 BadDeviceToken). Real APNs needs a real device's token.
SAMPLE_DEVICE_TOKEN = "ab" * 32


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description="Publish sample jobs to apns-worker and optionally wait for their results.")
    parser.add_argument("--url", help=f"broker URL (default: $APNS_AMQP_URL, else {DEFAULT_URL})")
    parser.add_argument("--exchange", default="apns.jobs", help="jobs exchange (default: %(default)s)")
    parser.add_argument("--routing-key", default="send", help="routing key of the jobs (default: %(default)s)")
    parser.add_argument("--count", type=int, default=10, help="how many jobs to publish (default: %(default)s)")
    parser.add_argument("--device-token", default=SAMPLE_DEVICE_TOKEN, help="hex device token of every job (default: a sample token the mock APNs accepts)")
    parser.add_argument("--tokens", type=int, default=1, help="multicast: send each job to this many devices (random tokens the mock APNs accepts; at most 10000) with device_tokens (default: %(default)s, an ordinary job to --device-token)")
    parser.add_argument("--topic", default="com.example.app", help="apns-topic, i.e. the app's bundle id (default: %(default)s)")
    parser.add_argument("--id-prefix", default=f"sample-{uuid.uuid4().hex[:8]}", help="job ids are PREFIX-1 ... PREFIX-COUNT (default: sample-<random>)")
    parser.add_argument("--wait-results", action="store_true", help="ask for results on an exclusive reply queue and wait for them")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for the results (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="print each result body as it came (one JSON object per line) instead of a summary line")
    arguments = parser.parse_args(argv)
    if arguments.count < 1:
        parser.error("--count must be at least 1")
    # Read here rather than as the option's default, so --help never prints a password from the environment.
    arguments.url = arguments.url or os.environ.get("APNS_AMQP_URL") or DEFAULT_URL
    return arguments


def without_password(url):
    """The URL with its password masked, for messages."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def make_job(job_id, device_token, topic, number, count, tokens=1):
    """A job body: the four required fields; see docs/messages.md for the optional ones.

    With tokens > 1, a multicast job: the same notification to that many devices (device_tokens), each
    sent under its own apns-id, with one result for the job (counts, and an entry per token not delivered).
    """
    job = {
        "id": job_id,
        "topic": topic,
        "payload": {"aps": {"alert": {"title": "Hello from publish_jobs.py", "body": f"Sample job {number} of {count}"}}},
    }
    if tokens > 1:
        job["device_tokens"] = ["a" + uuid.uuid4().hex + uuid.uuid4().hex[:31] for _ in range(tokens)]
    else:
        job["device_token"] = device_token
    return job


def publish(channel, arguments, job, reply_to):
    """Publishes one job and returns only once the broker confirmed it; raises if it did not."""
    properties = pika.BasicProperties(
        content_type="application/json",
        delivery_mode=2,  # persistent: survives a broker restart (the jobs queue is durable)
        message_id=job["id"],  # the worker also reads the id from here when the body has none
        timestamp=int(time.time()),
        # Milliseconds since 1970: the worker measures the result's latency_ms from it.
        headers={"published-at": int(time.time() * 1000)},
        reply_to=reply_to,  # None: the result goes to the results exchange instead
    )
    channel.basic_publish(
        exchange=arguments.exchange,
        routing_key=arguments.routing_key,
        body=json.dumps(job, separators=(",", ":")).encode(),
        properties=properties,
        mandatory=True,  # unroutable -> UnroutableError, not a silent drop
    )


def wait_for_results(channel, queue, expected_ids, timeout, as_json):
    """Consumes results from `queue` until every id in `expected_ids` has one or `timeout` passes.

    Returns the ids that got no result.
    """
    waiting = set(expected_ids)
    deadline = time.monotonic() + timeout
    # inactivity_timeout makes the generator yield (None, None, None) when nothing came for a second,
    # so the deadline is checked even when the queue is quiet.
    for method, properties, body in channel.consume(queue, auto_ack=True, inactivity_timeout=1.0):
        if method is not None:
            job_id = properties.correlation_id
            # A multicast result with tokens still retrying is followed by another for those tokens.
            if retrying(body) == 0:
                waiting.discard(job_id)
            print_result(job_id, body, as_json)
        if not waiting or time.monotonic() >= deadline:
            break
    channel.cancel()
    return waiting


def retrying(body):
    """How many tokens of a multicast job a result leaves to a later result (0 for any other result)."""
    try:
        return json.loads(body).get("tokens", {}).get("retrying", 0)
    except ValueError:
        return 0


def print_result(job_id, body, as_json):
    if as_json:
        print(body.decode(), flush=True)
        return
    try:
        result = json.loads(body)
    except ValueError:
        print(f"{job_id}: unreadable result: {body!r}", flush=True)
        return
    line = f"{job_id}: {result.get('status')}"
    if "reason" in result:
        line += f" {result['reason']}"
    if "http_status" in result:
        line += f" (HTTP {result['http_status']})"
    if "detail" in result:
        line += f": {result['detail']}"
    if "tokens" in result:
        line += " (" + ", ".join(f"{name} {n}" for name, n in sorted(result["tokens"].items()) if n) + ")"
        for failure in result.get("failures", [])[:5]:
            line += f"\n  {failure['device_token'][:8]}...: {failure['status']} {failure.get('reason', '')}"
    print(line, flush=True)


def main(argv):
    arguments = parse_arguments(argv)

    def log(message):  # progress goes to stderr; stdout carries only results
        print(message, file=sys.stderr, flush=True)

    try:
        connection = pika.BlockingConnection(pika.URLParameters(arguments.url))
    except AMQPConnectionError as error:
        log(f"cannot connect to {without_password(arguments.url)}: {error!r}")
        return 1

    try:
        channel = connection.channel()
        channel.confirm_delivery()

        reply_queue = None
        if arguments.wait_results:
            # Server-named, exclusive: deleted when this connection closes. Declare it before
            # publishing, so no result can arrive before it exists.
            reply_queue = channel.queue_declare(queue="", exclusive=True).method.queue

        confirmed, failed = [], 0
        for number in range(1, arguments.count + 1):
            job = make_job(f"{arguments.id_prefix}-{number}", arguments.device_token, arguments.topic, number, arguments.count, arguments.tokens)
            try:
                publish(channel, arguments, job, reply_queue)
                confirmed.append(job["id"])
            except UnroutableError:
                failed += 1
                log(f"{job['id']}: unroutable: no queue is bound to exchange {arguments.exchange!r} with key "
                    f"{arguments.routing_key!r} (has the worker declared its topology? see 'apns-worker declare')")
            except NackError:
                failed += 1
                log(f"{job['id']}: refused by the broker (nack): the jobs queue may be full; publish it again later")
        log(f"published {arguments.count} job(s): {len(confirmed)} confirmed, {failed} not")

        missing = set()
        if reply_queue is not None and confirmed:
            missing = wait_for_results(channel, reply_queue, confirmed, arguments.timeout, arguments.json)
            log(f"{len(confirmed) - len(missing)} result(s) received" + (f"; none for {sorted(missing)}" if missing else ""))
        return 0 if failed == 0 and not missing else 1
    except ChannelClosedByBroker as error:
        # For example 404 NOT_FOUND when the exchange does not exist.
        log(f"the broker closed the channel: {error.reply_code} {error.reply_text}")
        return 1
    finally:
        if connection.is_open:
            connection.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
