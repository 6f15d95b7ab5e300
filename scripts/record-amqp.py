#!/usr/bin/env python3
"""Records what a real RabbitMQ sends a client, for the AMQP client's socket-free tests and the frame
decoder's fuzz corpus. A recording proxy on 127.0.0.1 sits between pika and the broker; one session
exercises what the worker meets (the handshake, confirms, a return, a nack, a body split over frames,
headers, a heartbeat, a refused declaration, a consumer the broker cancels, the close); the broker's
bytes are written, as they came, to OUT (one file for the session).

    scripts/record-amqp.py PORT OUT      # PORT: the broker's AMQP port on 127.0.0.1
"""
import socket
import sys
import threading
import time

import pika

broker_port, out = int(sys.argv[1]), sys.argv[2]
recorded = bytearray()


def pump(source, destination, record):
    while True:
        try:
            data = source.recv(65536)
        except OSError:
            data = b""
        if not data:
            try:
                destination.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            return
        if record:
            recorded.extend(data)
        destination.sendall(data)


listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(1)
proxy_port = listener.getsockname()[1]


def serve():
    client, _ = listener.accept()
    upstream = socket.create_connection(("127.0.0.1", broker_port))
    threading.Thread(target=pump, args=(client, upstream, False), daemon=True).start()
    pump(upstream, client, True)


proxy = threading.Thread(target=serve, daemon=True)
proxy.start()

suffix = str(int(time.time() * 1000))
queue, bounded = "record-" + suffix, "record-bounded-" + suffix
connection = pika.BlockingConnection(pika.ConnectionParameters("127.0.0.1", proxy_port, heartbeat=2, frame_max=8192,
                                                               client_properties={"connection_name": "record-amqp"}))
channel = connection.channel()
channel.confirm_delivery()
channel.queue_declare(queue, durable=True, arguments={"x-queue-type": "quorum"})
channel.queue_declare(bounded, durable=True, arguments={"x-max-length": 1, "x-overflow": "reject-publish"})
channel.basic_qos(prefetch_count=10)
try:
    channel.basic_publish("", "record-nowhere-" + suffix, b"{}", mandatory=True)  # a return, then its ack
except pika.exceptions.UnroutableError:
    pass
channel.basic_publish("", bounded, b"first")
try:
    channel.basic_publish("", bounded, b"second")  # the queue is full: a nack
except pika.exceptions.NackError:
    pass
headers = {"x-publish-seq": 7, "published-at": 1764000000000, "nested": {"list": [1, "two", True]}}
channel.basic_publish("", queue, b'{"id":"job-1"}', pika.BasicProperties(content_type="application/json", delivery_mode=2,
                                                                          message_id="job-1", headers=headers))
channel.basic_publish("", queue, b"x" * 10000)  # a body over two frames (frame_max 8192)
channel.basic_publish("", queue, b"")  # no body frame at all
deliveries = []
tag = channel.basic_consume(queue, lambda ch, method, properties, body: deliveries.append(method.delivery_tag))
while len(deliveries) < 3:
    connection.process_data_events(time_limit=1)
channel.basic_ack(deliveries[-1], multiple=True)
connection.sleep(2.5)  # a heartbeat from the broker
channel.basic_cancel(tag)
try:
    channel.queue_declare("record-missing-" + suffix, passive=True)  # 404: the channel closes
except pika.exceptions.ChannelClosedByBroker:
    pass
channel = connection.channel()
cancelled = []
channel.add_on_cancel_callback(lambda frame: cancelled.append(frame))
channel.basic_consume(queue, lambda ch, method, properties, body: None)
other = connection.channel()
other.queue_delete(queue)  # the broker cancels the consumer
while not cancelled:
    connection.process_data_events(time_limit=1)
other.queue_delete(bounded)
connection.close()
proxy.join(timeout=5)
with open(out, "wb") as file:
    file.write(recorded)
print(f"recorded {len(recorded)} bytes from the broker on port {broker_port} into {out}")
