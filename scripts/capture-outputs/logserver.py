#!/usr/bin/env python3
"""A small real HTTP app whose request log is the material for the log cases.

    logserver.py --format kv|combined|json|pylog --log FILE --port-file FILE

It listens on 127.0.0.1 (a free port, written to --port-file) and answers:
  /api/items/N, /api/users/N, /api/search?q=..., /static/..., /healthz
      200 after a real 18-38 ms of work (a sleep);
  /api/checkout/N   500: the handler raises; pylog logs the traceback;
  /api/export/N     503 ("upstream timed out");
  /api/report/N     200.
A request with the header "X-Fault-Delay: MS" takes MS more milliseconds
(the load generator's slow injections; the logged line shows nothing of it
but the duration).
Every request is logged when it completes, in the chosen format, with its
real duration, a fresh request id and the client's port. A DEBUG line
(cache lookups) precedes some requests in the kv and pylog formats.
It stops on SIGTERM.
"""
import argparse
import datetime as dt
import json
import logging
import os
import random
import signal
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


class UpstreamTimeout(Exception):
    pass


INVENTORY = {"sku-%d" % i: 3 + i % 17 for i in range(1, 400)}


def reserve(cart):
    """Reserves every line of a cart; raises KeyError for an unknown SKU."""
    total = 0
    for sku, qty in cart:
        left = INVENTORY[sku]
        if qty > left:
            raise ValueError("only %d of %s left" % (left, sku))
        total += qty
    return total


def checkout(cart_id):
    cart = [("sku-%d" % (cart_id % 390 + 1), 1), ("sku-%d" % (cart_id * 7 % 390 + 1), 2)]
    if cart_id % 1000 == 471:
        cart.append(("sku-4471", 1))  # a SKU the inventory never had
    return reserve(cart)


class App:
    def __init__(self, fmt, log_path):
        self.fmt = fmt
        self.lock = threading.Lock()
        self.rng = random.Random()
        self.logger = logging.getLogger("shop.http")
        self.cache = logging.getLogger("shop.cache")
        h = logging.FileHandler(log_path)
        if fmt == "pylog":
            h.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s [pid %(process)d] %(name)s: %(message)s"))
        else:
            h.setFormatter(logging.Formatter("%(message)s"))
        root = logging.getLogger("shop")
        root.setLevel(logging.DEBUG)
        root.addHandler(h)

    def work_ms(self):
        with self.lock:
            return self.rng.uniform(18, 38)

    @staticmethod
    def now_iso():
        return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"

    def debug(self, msg):
        if self.fmt == "kv":
            self.logger.debug("%s DEBUG cache %s", self.now_iso(), msg)
        elif self.fmt == "pylog":
            self.cache.debug(msg)

    def log_request(self, h, method, path, status, dur_ms, nbytes, rid, err=None):
        remote = "%s:%d" % h.client_address
        ua = h.headers.get("User-Agent", "-")
        if self.fmt == "kv":
            level = "INFO " if status < 500 else "ERROR"
            line = "%s %s http request_id=%s method=%s path=%s status=%d dur=%dms bytes=%d remote=%s" % (
                self.now_iso(), level, rid[:8], method, path, status, round(dur_ms), nbytes, remote)
            if err:
                line += ' err="%s"' % err
            self.logger.info(line)
        elif self.fmt == "combined":
            t = dt.datetime.now(dt.timezone.utc).strftime("%d/%b/%Y:%H:%M:%S +0000")
            self.logger.info('%s - - [%s] "%s %s HTTP/1.1" %d %d "-" "%s" %.3f',
                             h.client_address[0], t, method, path, status, nbytes, ua, dur_ms / 1000)
        elif self.fmt == "json":
            rec = {"time": dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z"),
                   "level": "info" if status < 500 else "error", "logger": "http", "msg": "request",
                   "method": method, "path": path, "status": status, "duration_ms": round(dur_ms, 2),
                   "bytes": nbytes, "request_id": rid, "remote": remote}
            if err:
                rec["error"] = err
            self.logger.info(json.dumps(rec))
        else:  # pylog
            msg = "%s %s -> %d in %.1fms (%d bytes, req %s)" % (method, path, status, dur_ms, nbytes, rid[:12])
            if status >= 500:
                self.logger.error(msg)
            else:
                self.logger.info(msg)


def make_handler(app):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "shop/0.9"

        def log_message(self, *args):
            pass  # the app logs every request itself

        def do_GET(self):
            t0 = time.perf_counter()
            rid = str(uuid.uuid4())
            u = urlsplit(self.path)
            parts = u.path.strip("/").split("/")
            status, body, err = 200, b"", None
            try:
                if u.path.startswith("/api/items/") and int(parts[-1]) % 3 == 0:
                    app.debug("hit key=items:%s" % parts[-1])
                time.sleep(app.work_ms() / 1000 + int(self.headers.get("X-Fault-Delay", "0")) / 1000)
                if u.path.startswith("/api/checkout/"):
                    try:
                        n = checkout(int(parts[-1]))
                        body = json.dumps({"reserved": n}).encode()
                    except Exception as e:
                        status, err = 500, "%s: %s" % (type(e).__name__, e)
                        if app.fmt == "pylog":
                            app.logger.exception("unhandled error in checkout (req %s)", rid[:12])
                elif u.path.startswith("/api/export/"):
                    status, err = 503, "upstream timed out"
                    body = b'{"error":"upstream timed out"}'
                elif u.path.startswith("/api/report/"):
                    body = b'{"rows":1200}'
                elif u.path == "/healthz":
                    body = b"ok"
                else:
                    body = json.dumps({"path": u.path, "id": parts[-1], "items": list(range(int(len(u.path) % 7 + 3)))}).encode()
            except Exception as e:  # pragma: no cover - a bug in this app
                status, err = 500, repr(e)
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            app.log_request(self, "GET", self.path, status, (time.perf_counter() - t0) * 1000, len(body), rid, err)

    return Handler


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--format", choices=["kv", "combined", "json", "pylog"], required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--port-file", required=True)
    a = p.parse_args()
    app = App(a.format, a.log)
    srv = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(app))
    srv.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=srv.shutdown).start())
    with open(a.port_file + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(a.port_file + ".tmp", a.port_file)
    if a.format == "pylog":
        logging.getLogger("shop.app").info("listening on 127.0.0.1:%d", srv.server_address[1])
    srv.serve_forever()
    logging.shutdown()
    sys.exit(0)


if __name__ == "__main__":
    main()
