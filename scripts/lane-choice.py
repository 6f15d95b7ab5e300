#!/usr/bin/env python3
"""How long does an urgent message wait behind a backlog of bulk messages, under two broker designs?
  A  one quorum queue; urgent messages carry AMQP priority 9, bulk 0 (4.0 quorum queues serve >4 about
     2:1 over the rest when both are ready; 3.10 quorum queues ignore priority). Its one consumer's
     prefetch is bulk + urgent prefetch, the same window as design B's two consumers together.
  B  a quorum queue per lane (bulk, urgent), both consumed on one channel, each consumer with a prefetch
     of its own (basic.qos global=false before each basic.consume).
Per design: declares fresh quorum queues, publishes the bulk backlog (persistent, confirmed), consumes
like a worker that holds every delivery HOLD ms (all deliveries in the window at once) and then acks it,
and once the bulk window is full publishes the urgent messages at RATE/s, each stamped with its publish
time. A run ends when every urgent message was delivered or after TIMEOUT s; the queues are deleted.

Run from the repository root against a test broker (scripts/rabbitmq.sh start), e.g.:
  /usr/bin/python3 scripts/lane-choice.py amqp://guest:guest@127.0.0.1:5673/ --hold 100,1000
Prints the broker version, then one line per design and hold: median, p99 and max delay from publish to
delivery of the urgent messages (ms), how many bulk messages had not been delivered yet when the last
urgent one was, and, on timeout, "urgent not delivered within T s: N of M".
"""
import argparse
import heapq
import time
import uuid

import pika


def declare(channel, name):
    channel.queue_declare(name, durable=True, arguments={"x-queue-type": "quorum"})


def publish_backlog(channel, queue, count):
    properties = pika.BasicProperties(delivery_mode=2, priority=0, headers={"lane": "bulk"})
    for number in range(count):
        channel.basic_publish("", queue, b"bulk %d" % number, properties, mandatory=True)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(url, design, hold, args):
    connection = pika.BlockingConnection(pika.URLParameters(url))
    tag = uuid.uuid4().hex[:8]
    if design == "A":
        queues = {"bulk": "lanes-%s-single" % tag}
        queues["urgent"] = queues["bulk"]
    else:
        queues = {"bulk": "lanes-%s-bulk" % tag, "urgent": "lanes-%s-urgent" % tag}
    setup = connection.channel()
    for queue in set(queues.values()):
        declare(setup, queue)
    setup.confirm_delivery()
    publish_backlog(setup, queues["bulk"], args.backlog)

    consume = connection.channel()
    urgent_channel = connection.channel()  # no confirms: an urgent publish is stamped and sent at once
    state = {"bulk_in_flight": 0, "bulk_delivered": 0, "delays": [], "bulk_left_at_last": None}
    due = []  # (ack time, delivery tag) of every delivery the worker is "sending"

    def on_message(channel, method, properties, body):
        now = time.monotonic()
        heapq.heappush(due, (now + hold / 1000.0, method.delivery_tag, properties.headers["lane"]))
        if properties.headers["lane"] == "urgent":
            state["delays"].append((now - properties.headers["sent"] / 1e6) * 1000.0)
            if len(state["delays"]) == args.urgent:
                state["bulk_left_at_last"] = args.backlog - state["bulk_delivered"]
        else:
            state["bulk_in_flight"] += 1
            state["bulk_delivered"] += 1

    if design == "A":
        consume.basic_qos(prefetch_count=args.bulk_prefetch + args.urgent_prefetch, global_qos=False)
        consume.basic_consume(queues["bulk"], on_message)
    else:
        consume.basic_qos(prefetch_count=args.bulk_prefetch, global_qos=False)
        consume.basic_consume(queues["bulk"], on_message)
        consume.basic_qos(prefetch_count=args.urgent_prefetch, global_qos=False)
        consume.basic_consume(queues["urgent"], on_message)

    window = args.bulk_prefetch + (args.urgent_prefetch if design == "A" else 0)
    sent, next_send, started = 0, None, time.monotonic()
    while True:
        connection.process_data_events(time_limit=0.001)
        now = time.monotonic()
        while due and due[0][0] <= now:
            _, delivery_tag, lane = heapq.heappop(due)
            consume.basic_ack(delivery_tag)
            if lane == "bulk":
                state["bulk_in_flight"] -= 1
        if next_send is None:
            if state["bulk_in_flight"] >= min(window, args.backlog):
                next_send = started = now
            elif now - started > args.timeout:
                raise SystemExit("the consumer's window never filled (%d in flight)" % state["bulk_in_flight"])
        while next_send is not None and sent < args.urgent and next_send <= now:
            properties = pika.BasicProperties(
                delivery_mode=2, priority=9, headers={"lane": "urgent", "sent": int(time.monotonic() * 1e6)})
            urgent_channel.basic_publish("", queues["urgent"], b"urgent %d" % sent, properties)
            sent += 1
            next_send += 1.0 / args.rate
        if len(state["delays"]) == args.urgent or (next_send is not None and now - started > args.timeout):
            break

    consume.close()  # unacked deliveries go back to their queues, which go now
    for queue in set(queues.values()):
        setup.queue_delete(queue)
    connection.close()
    return state


def report(design, hold, state, args):
    delays = state["delays"]
    line = "design %s  hold %5d ms  " % (design, hold)
    if delays:
        line += "urgent delay median %7.1f  p99 %7.1f  max %7.1f ms" % (
            percentile(delays, 0.5), percentile(delays, 0.99), max(delays))
    if len(delays) == args.urgent:
        line += "  bulk still queued at last urgent: %d" % state["bulk_left_at_last"]
    else:
        line += "  " if delays else ""
        line += "urgent not delivered within %d s: %d of %d (bulk still queued: %d)" % (
            args.timeout, args.urgent - len(delays), args.urgent, args.backlog - state["bulk_delivered"])
    print(line, flush=True)


def main():
    parser = argparse.ArgumentParser(description="urgent-vs-bulk wait under one queue with priorities "
                                                 "(A) or a queue per lane (B)")
    parser.add_argument("url")
    parser.add_argument("--designs", default="A,B", help="comma-separated: A, B (default A,B)")
    parser.add_argument("--hold", default="100", help="ms each delivery is held; comma-separated list")
    parser.add_argument("--backlog", type=int, default=20000)
    parser.add_argument("--bulk-prefetch", type=int, default=200)
    parser.add_argument("--urgent-prefetch", type=int, default=50)
    parser.add_argument("--urgent", type=int, default=200, help="urgent messages to publish")
    parser.add_argument("--rate", type=float, default=50.0, help="urgent messages per second")
    parser.add_argument("--timeout", type=float, default=60.0, help="s from the first urgent publish")
    args = parser.parse_args()

    probe = pika.BlockingConnection(pika.URLParameters(args.url))
    version = probe._impl.server_properties.get("version", b"?")
    probe.close()
    print("broker %s  RabbitMQ %s  backlog %d  prefetch bulk %d urgent %d  urgent %d at %g/s" % (
        args.url, version.decode() if isinstance(version, bytes) else version, args.backlog,
        args.bulk_prefetch, args.urgent_prefetch, args.urgent, args.rate), flush=True)
    for hold in [int(value) for value in args.hold.split(",")]:
        for design in args.designs.split(","):
            report(design, hold, run(args.url, design, hold, args), args)


if __name__ == "__main__":
    main()
