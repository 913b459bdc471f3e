#!/usr/bin/env python3
"""Spawn-to-exit latency of several (build, index) pairs, interleaved.

    scripts/scale-latency.py [--rounds N] [--copies C] LABEL=BIN_DIR:CONFIG ...

For every query of eval/large-queries.jsonl, ROUNDS times (default 3), runs
for each pair, in an order that rotates from query to query,
`vaultctx search` (hybrid), `vaultctx search --mode vector` and the prompt
hook `vaultctx-userprompt`, and prints p50 / p95 wall time in ms per pair
and command. CONFIG is a vaultctx config file naming the vault, index and
model. Used for the 1x / Nx rows of the README's bench table (issue 17):
pairs measured in one run share the machine's load, so compare them only
within a run.

Where a binary's pages lie in the page cache moves its times: two
byte-identical copies of one build differed by up to 0.6 ms (8 %) of a
1x search, either way, whether written by the linker or by cp. So each
pair runs from C copies of BIN_DIR (default 2), made in a temporary
folder, dropped from the page cache and read back, and a pair's times are
those of all its copies; give the same BIN_DIR twice (an A/A pair) to see
what is left of the effect.
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time

args = sys.argv[1:]
rounds, copies = 3, 2
while args[:1] in (["--rounds"], ["--copies"]):
    if args[0] == "--rounds":
        rounds = int(args[1])
    else:
        copies = max(1, int(args[1]))
    args = args[2:]
if not args:
    sys.exit(__doc__)
tmp = tempfile.mkdtemp()


def copy_of(src, dst):
    """Copies the files of src into dst, drops them from the page cache and
    reads them back, so that every copy's pages are laid out the same way."""
    os.makedirs(dst)
    for name in sorted(os.listdir(src)):
        if not os.path.isfile(os.path.join(src, name)):
            continue
        shutil.copy2(os.path.join(src, name), os.path.join(dst, name))
        fd = os.open(os.path.join(dst, name), os.O_RDONLY)
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        while os.read(fd, 1 << 20):
            pass
        os.close(fd)


pairs = []  # (label, bin dir, config), one per copy
labels = []
for a in args:
    label, _, rest = a.partition("=")
    bindir, _, config = rest.partition(":")
    labels.append(label)
    for c in range(copies):
        d = os.path.join(tmp, "bin", f"{label}.{c}")
        copy_of(bindir, d)
        pairs.append((label, d, config))
here = os.path.dirname(os.path.abspath(__file__))
queries = [json.loads(l)["query"] for l in open(os.path.join(here, "..", "eval", "large-queries.jsonl"))]
kinds = ("hybrid search", "vector search", "prompt hook")
wall = {(label, k): [] for label in labels for k in kinds}


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

shutil.rmtree(tmp, ignore_errors=True)
print(f"{len(queries)} queries x {rounds} rounds x {copies} copies, interleaved; p50 / p95 ms, spawn to exit")
print("| | " + " | ".join(labels) + " |")
print("|---|" + "---|" * len(labels))
for k in kinds:
    print(f"| {k} | " + " | ".join(f"{statistics.median(wall[(l, k)]):.1f} / {pct(wall[(l, k)], 0.95):.1f}" for l in labels) + " |")
