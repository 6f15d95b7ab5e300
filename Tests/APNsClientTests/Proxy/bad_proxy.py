#!/usr/bin/env python3
"""Proxies that misbehave, for the CONNECT tests (loopback only).

  bad_proxy.py stall PORT   accepts connections and never answers
  bad_proxy.py close PORT   answers CONNECT with 200, then closes once the client sends anything
"""
import socket
import sys
import threading


def serve(mode, port):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(50)
    held = []
    while True:
        connection, _ = listener.accept()
        if mode == "stall":
            held.append(connection)  # keep it open, say nothing
            continue
        threading.Thread(target=close_after_connect, args=(connection,), daemon=True).start()


def close_after_connect(connection):
    request = b""
    while b"\r\n\r\n" not in request:
        chunk = connection.recv(4096)
        if not chunk:
            connection.close()
            return
        request += chunk
    connection.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
    connection.recv(4096)  # the TLS ClientHello: the tunnel dies under it
    connection.close()


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
