#!/usr/bin/env python3
"""A raw-socket server for issue 37's window measurement: it answers the window's catalogue and list reads
plausibly, and every POST /orders with a 201 that is chunked and never ends: 1-byte chunks, each with a 60 KB chunk
extension, written as fast as the peer reads, the connection left open. Prints how many bytes each POST got.
Usage: server.py PORT_FILE   (listens on a free loopback port and writes it to PORT_FILE)"""
import json
import socket
import sys
import threading

PRODUCTS = json.dumps([{"id": "kniha", "name": "Kniha", "stock": 100},
                       {"id": "hrnek", "name": "Hrnek", "stock": 100},
                       {"id": "propiska", "name": "Propiska", "stock": 100}]).encode()
CHUNK = b"1;" + b"x" * 60000 + b"\r\n{\r\n"


def read_head(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        got = conn.recv(65536)
        if not got:
            return None, b""
        data += got
    head, _, rest = data.partition(b"\r\n\r\n")
    return head.decode("latin-1"), rest


def answer(conn, status, body, ctype="application/json"):
    conn.sendall(b"HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n" % (status, ctype.encode(), len(body))
                 + body)


def serve(conn):
    try:
        while True:
            head, rest = read_head(conn)
            if head is None:
                return
            line = head.split("\r\n")[0]
            method, target = line.split(" ")[0], line.split(" ")[1]
            length = 0
            for h in head.split("\r\n")[1:]:
                if h.lower().startswith("content-length:"):
                    length = int(h.split(":", 1)[1])
            while len(rest) < length:
                rest += conn.recv(65536)
            if method == "POST" and target.startswith("/orders"):
                conn.sendall(b"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\n"
                             b"Transfer-Encoding: chunked\r\n\r\n")
                sent = 0
                try:
                    while True:
                        conn.sendall(CHUNK)
                        sent += len(CHUNK)
                except OSError:
                    print(f"POST {target}: the peer closed after {sent} bytes", flush=True)
                    return
            elif target.startswith("/products"):
                answer(conn, b"200 OK", PRODUCTS)
            elif target.startswith("/orders"):
                answer(conn, b"200 OK", b"[]")
            else:
                answer(conn, b"404 Not Found",
                       json.dumps({"type": "/problems/not-found", "title": "Not found", "status": 404}).encode(),
                       "application/problem+json")
    except OSError:
        return
    finally:
        conn.close()


def main():
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    with open(sys.argv[1], "w") as f:
        f.write(str(listener.getsockname()[1]))
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


main()
