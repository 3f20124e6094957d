#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 coresteer maintainers
# SPDX-License-Identifier: GPL-3.0-or-later
"""A web server for the HTTP(S) load's tests, on 127.0.0.1 or in a test's own namespace.

    http_load_server.py [--address A] [--port P] [--cert PEM --key PEM] [--congestion NAME]

prints its port on the first line, then serves until killed, one thread a connection:
    GET  /bytes/N      N bytes (octet-stream), sent in 64 KiB writes
    GET  /redirect/N   302 to /bytes/N
    GET  /loop         302 to itself
    GET  /empty        200 with no body
    POST /sink         reads the whole body, answers 200 "ok N"
    anything else      404
--congestion sets the TCP congestion control of what it sends (as a server on the internet
would send with, cubic most often), where the kernel has it.
"""
import argparse
import http.server
import socket
import socketserver
import ssl
import sys

CHUNK = bytes(range(256)) * 256


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.startswith("/bytes/"):
            n = int(self.path[len("/bytes/"):])
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(n))
            self.end_headers()
            while n > 0:
                k = min(n, len(CHUNK))
                self.wfile.write(CHUNK[:k])
                n -= k
        elif self.path.startswith("/redirect/"):
            self.redirect("/bytes/" + self.path[len("/redirect/"):])
        elif self.path == "/loop":
            self.redirect("/loop")
        elif self.path == "/empty":
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.send_error(404)

    def redirect(self, where):
        self.send_response(302)
        self.send_header("Location", where)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        if self.path != "/sink":
            self.send_error(405 if self.path.startswith("/bytes/") else 404)
            return
        n = int(self.headers.get("Content-Length", "0"))
        got = 0
        while got < n:
            b = self.rfile.read(min(65536, n - got))
            if not b:
                return
            got += len(b)
        body = ("ok %d" % got).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    congestion = None

    def handle_error(self, request, client_address):
        # A client that stops mid-transfer (the load ends that way) is no error here.
        if not isinstance(sys.exc_info()[1], (ConnectionError, ssl.SSLError)):
            super().handle_error(request, client_address)

    def get_request(self):
        conn, addr = super().get_request()
        if self.congestion:
            try:
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, self.congestion.encode())
            except OSError:
                pass
        return conn, addr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--address", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--cert")
    ap.add_argument("--key")
    ap.add_argument("--congestion")
    a = ap.parse_args()
    server = Server((a.address, a.port), Handler)
    server.congestion = a.congestion
    if a.cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(a.cert, a.key)
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
