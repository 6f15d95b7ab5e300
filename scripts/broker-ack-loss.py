#!/usr/bin/env python3
"""Does a RabbitMQ node forget acks it received just before its own shutdown? (docs/reliability.md,
finding 13.) Publishes N messages to a quorum queue, consumes them with prefetch 200 and acks each at
once, stops the node with `scripts/rabbitmq.sh stop` after STOP_AT acks while still acking, starts it
again, consumes the rest, and prints how many messages came back although they had been acked before
the stop, how many never showed up, and how many are left in the queue.

Run from the repository root with a test broker of its own (it is stopped and started), e.g.:
  export APNS_RABBITMQ_PORT=5691 APNS_RABBITMQ_VERSION=3.10; scripts/rabbitmq.sh start
  /usr/bin/python3 scripts/broker-ack-loss.py amqp://guest:guest@127.0.0.1:5691/ 30000 10000
  scripts/rabbitmq.sh stop
"""
import subprocess
import sys

import pika

QUEUE = "ack-loss-check"


def connect(url):
    return pika.BlockingConnection(pika.URLParameters(url))


def main(url, count, stop_at):
    connection = connect(url)
    channel = connection.channel()
    channel.queue_declare(QUEUE, durable=True, arguments={"x-queue-type": "quorum"})
    channel.queue_purge(QUEUE)
    channel.confirm_delivery()
    for number in range(count):
        channel.basic_publish("", QUEUE, str(number).encode(), pika.BasicProperties(delivery_mode=2))
    connection.close()

    acked, stopper, after_stop_began = set(), None, 0
    # The message whose ack was being written when the connection ended: the broker may have it or not.
    in_doubt = None
    connection = connect(url)
    channel = connection.channel()
    channel.basic_qos(prefetch_count=200)
    try:
        for method, _, body in channel.consume(QUEUE, inactivity_timeout=30):
            if method is None:
                break
            in_doubt = int(body)
            channel.basic_ack(method.delivery_tag)
            acked.add(in_doubt)
            in_doubt = None
            if stopper is not None:
                after_stop_began += 1
            elif len(acked) == stop_at:
                stopper = subprocess.Popen(["scripts/rabbitmq.sh", "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except Exception as error:  # the node closing the connection under the consumer ends the first pass
        print(f"connection ended: {type(error).__name__}")
    if stopper is None:
        sys.exit(f"only {len(acked)} acks before the messages ran out: raise N or lower STOP_AT")
    stopper.wait()
    subprocess.run(["scripts/rabbitmq.sh", "start"], check=True, stdout=subprocess.DEVNULL)

    again, seen = 0, set(acked) | ({in_doubt} if in_doubt is not None else set())
    connection = connect(url)
    channel = connection.channel()
    channel.basic_qos(prefetch_count=200)
    for method, _, body in channel.consume(QUEUE, inactivity_timeout=5):
        if method is None:
            break
        channel.basic_ack(method.delivery_tag)
        again += int(body) in acked
        seen.add(int(body))
    channel.cancel()
    left = channel.queue_declare(QUEUE, durable=True, passive=True).method.message_count
    channel.queue_delete(QUEUE)
    connection.close()
    print(f"acked before the stop: {len(acked)} ({after_stop_began} of them after the stop began); "
          f"delivered again although acked: {again}; never seen: {count - len(seen)}; left in the queue: {left}"
          + (f"; 1 ack in doubt (message {in_doubt})" if in_doubt is not None else ""))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
