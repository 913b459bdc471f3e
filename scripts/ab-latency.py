#!/usr/bin/env python3
"""Spawn-to-exit A/B of two builds, interleaved, on one index.

    scripts/ab-latency.py BASE_BIN_DIR NEW_BIN_DIR CONFIG [ROUNDS]

Runs `vaultctx search` (hybrid and --mode bm25) and the two context hooks of
each build for every query of eval/large-queries.jsonl, alternating which
build goes first, ROUNDS times (default 3), and prints each command's p50
wall time and CPU time (user+sys of the child) per build and their ratio.
CONFIG is a vaultctx config file naming the index and model; both builds
read the same index. Compare builds only within one run: the machine is
shared and moves by several percent between runs.
"""
import json, os, statistics, subprocess, sys, tempfile, time

base, new, config = sys.argv[1:4]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
tmp = tempfile.mkdtemp()
env = dict(os.environ, VAULTCTX_CONFIG=config, XDG_CACHE_HOME=tmp + "/cache", XDG_STATE_HOME=tmp + "/state")
here = os.path.dirname(os.path.abspath(__file__))
queries = [json.loads(l)["query"] for l in open(os.path.join(here, "..", "eval", "large-queries.jsonl"))]
bins = {"base": base, "new": new}
kinds = ("search", "bm25", "userprompt", "pretooluse")
wall = {(b, k): [] for b in bins for k in kinds}
cpu = {(b, k): [] for b in bins for k in kinds}


def run(key, cmd, stdin=b""):
    start = time.perf_counter_ns()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    p.stdin.write(stdin)
    p.stdin.close()
    _, _, ru = os.wait4(p.pid, 0)
    wall[key].append((time.perf_counter_ns() - start) / 1e6)
    cpu[key].append((ru.ru_utime + ru.ru_stime) * 1000)


for r in range(rounds):
    for i, q in enumerate(queries):
        for b in (list(bins) if (i + r) % 2 == 0 else list(bins)[::-1]):
            d = bins[b]
            run((b, "search"), [d + "/vaultctx", "search", "--", q])
            run((b, "bm25"), [d + "/vaultctx", "search", "--mode", "bm25", "--", q])
            prompt = {"session_id": "", "hook_event_name": "UserPromptSubmit", "prompt": q}
            run((b, "userprompt"), [d + "/vaultctx-userprompt"], json.dumps(prompt).encode())
            grep = {"session_id": "", "hook_event_name": "PreToolUse", "tool_name": "Grep", "tool_input": {"pattern": q}}
            run((b, "pretooluse"), [d + "/vaultctx-pretooluse"], json.dumps(grep).encode())

for k in kinds:
    wb, wn = statistics.median(wall[("base", k)]), statistics.median(wall[("new", k)])
    cb, cn = statistics.median(cpu[("base", k)]), statistics.median(cpu[("new", k)])
    print(f"{k:11s} p50 base {wb:6.2f} ms  new {wn:6.2f} ms  new/base {wn / wb:.3f}"
          f"  | CPU base {cb:5.2f} new {cn:5.2f} ratio {cn / cb:.3f}  (n={len(wall[('new', k)])})")
