#!/usr/bin/env python3
"""Runs logserver.py and a load generator against it; the server's log is the output.

    genlog.py --format kv --log DIR/app.log --requests 3000 --seed 7 \
              --concurrency 1 --inject 500@700 --inject slow@1200:30000 --inject 503@2500

The request plan (paths, in order) is drawn from --seed, so two runs with the
same arguments send the same requests in the same order; with --concurrency 1
the log lines then differ only in timestamps, durations, request ids, client
ports and pids. Injected requests (the anomalies):
  500@I        request I is /api/checkout/N471 (raises KeyError: a 500, a traceback in pylog)
  503@I[:MS]   request I is /api/export/N (503 upstream timed out), MS ms late
  slow@I:MS    request I is /api/report/N (a 200), MS ms late
The delay travels in a request header (X-Fault-Delay), so the logged path is
an ordinary one: only the status or the duration stands out.
"""
import argparse
import os
import queue
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def plan(n, seed, injects):
    rng = random.Random(seed)
    paths = []
    for _ in range(n):
        r = rng.random()
        if r < 0.45:
            p = "/api/items/%d" % rng.randint(1, 400)
        elif r < 0.65:
            p = "/api/users/%d" % rng.randint(1000, 9999)
        elif r < 0.75:
            p = "/api/search?q=%s" % rng.choice(["boots", "tent", "stove", "rope", "lamp", "map"])
        elif r < 0.83:
            c = rng.randint(1, 20000)
            if c % 1000 == 471:
                c += 1
            p = "/api/checkout/%d" % c
        elif r < 0.88:
            p = "/api/report/%d" % rng.randint(1, 90)
        elif r < 0.97:
            p = "/static/%s" % rng.choice(["app.js", "app.css", "logo.svg", "fonts/inter.woff2"])
        else:
            p = "/healthz"
        paths.append(p)
    plan = [(p, 0) for p in paths]
    for spec in injects:
        kind, _, rest = spec.partition("@")
        idx, _, arg = rest.partition(":")
        i, delay = int(idx), int(arg or 0)
        if kind == "500":
            plan[i] = ("/api/checkout/%d" % (471 + 1000 * rng.randint(0, 9)), delay)
        elif kind == "503":
            plan[i] = ("/api/export/%d" % rng.randint(1, 90), delay)
        elif kind == "slow":
            plan[i] = ("/api/report/%d" % rng.randint(1, 90), delay)
        else:
            sys.exit("unknown inject " + spec)
    return plan


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--format", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--requests", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--inject", action="append", default=[])
    a = p.parse_args()
    os.makedirs(os.path.dirname(os.path.abspath(a.log)), exist_ok=True)
    for f in (a.log, a.log + ".port"):
        if os.path.exists(f):
            os.remove(f)
    srv = subprocess.Popen([sys.executable, os.path.join(HERE, "logserver.py"), "--format", a.format,
                            "--log", a.log, "--port-file", a.log + ".port"])
    try:
        for _ in range(100):
            if os.path.exists(a.log + ".port"):
                break
            time.sleep(0.05)
        port = int(open(a.log + ".port").read())
        q = queue.Queue()
        for item in plan(a.requests, a.seed, a.inject):
            q.put(item)

        def worker(wid):
            while True:
                try:
                    path, delay = q.get_nowait()
                except queue.Empty:
                    return
                headers = {"User-Agent": "loadgen/1.0 (worker %d)" % wid}
                if delay:
                    headers["X-Fault-Delay"] = str(delay)
                req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), headers=headers)
                try:
                    with urllib.request.urlopen(req, timeout=120) as r:
                        r.read()
                except urllib.error.HTTPError as e:
                    e.read()

        ts = [threading.Thread(target=worker, args=(w,)) for w in range(a.concurrency)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    finally:
        srv.terminate()
        srv.wait(timeout=30)
    os.remove(a.log + ".port")


if __name__ == "__main__":
    main()
