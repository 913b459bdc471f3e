#!/usr/bin/env python3
"""Spawn-to-exit latency of several (build, index) pairs, interleaved.

    scripts/scale-latency.py [--rounds N] LABEL=BIN_DIR:CONFIG ...

For every query of eval/large-queries.jsonl, ROUNDS times (default 3), runs
for each pair, in an order that rotates from query to query,
`vaultctx search` (hybrid), `vaultctx search --mode vector` and the prompt
hook `vaultctx-userprompt`, and prints p50 / p95 wall time in ms per pair
and command. CONFIG is a vaultctx config file naming the vault, index and
model. Used for the 1x / Nx rows of the README's bench table (issue 17):
pairs measured in one run share the machine's load, so compare them only
within a run. Give every build as fresh `cp` copies of its binaries: a file
as the Go linker wrote it ran 10-15 % slower from the page cache than a
byte-identical copy (README, "A fresh machine, binaries laid out alike").
"""
import json, os, statistics, subprocess, sys, tempfile, time

args = sys.argv[1:]
rounds = 3
if args[:1] == ["--rounds"]:
    rounds, args = int(args[1]), args[2:]
if not args:
    sys.exit(__doc__)
pairs = []
for a in args:
    label, _, rest = a.partition("=")
    bindir, _, config = rest.partition(":")
    pairs.append((label, bindir, config))
tmp = tempfile.mkdtemp()
here = os.path.dirname(os.path.abspath(__file__))
queries = [json.loads(l)["query"] for l in open(os.path.join(here, "..", "eval", "large-queries.jsonl"))]
kinds = ("hybrid search", "vector search", "prompt hook")
wall = {(p[0], k): [] for p in pairs for k in kinds}


devnull = open(os.devnull, "wb")  # opened once: a run spawns thousands of processes


def run(key, env, cmd, stdin=b""):
    start = time.perf_counter_ns()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, env=env, stdout=devnull, stderr=devnull)
    p.stdin.write(stdin)
    p.stdin.close()
    p.wait()
    wall[key].append((time.perf_counter_ns() - start) / 1e6)


def pct(xs, p):
    xs = sorted(xs)
    return xs[int(p * (len(xs) - 1))]


step = 0
for r in range(rounds):
    for q in queries:
        step += 1
        order = pairs[step % len(pairs):] + pairs[:step % len(pairs)]
        for label, d, config in order:
            env = dict(os.environ, VAULTCTX_CONFIG=config, XDG_CACHE_HOME=f"{tmp}/{label}/cache",
                       XDG_STATE_HOME=f"{tmp}/{label}/state")
            run((label, "hybrid search"), env, [d + "/vaultctx", "search", "--", q])
            run((label, "vector search"), env, [d + "/vaultctx", "search", "--mode", "vector", "--", q])
            prompt = {"session_id": "", "hook_event_name": "UserPromptSubmit", "prompt": q}
            run((label, "prompt hook"), env, [d + "/vaultctx-userprompt"], json.dumps(prompt).encode())

print(f"{len(queries)} queries x {rounds} rounds, interleaved; p50 / p95 ms, spawn to exit")
print("| | " + " | ".join(p[0] for p in pairs) + " |")
print("|---|" + "---|" * len(pairs))
for k in kinds:
    print(f"| {k} | " + " | ".join(f"{statistics.median(wall[(p[0], k)]):.1f} / {pct(wall[(p[0], k)], 0.95):.1f}" for p in pairs) + " |")
