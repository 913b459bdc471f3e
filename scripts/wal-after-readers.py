#!/usr/bin/env python3
"""The WAL an incremental run leaves behind while readers are active, and
what it does to them (issue 17).

    scripts/wal-after-readers.py BIN_DIR [VAULT] [--model DIR] [--edit FRACTION] [--queries N]

Copies VAULT (default ../shared/corpora/large) to a temporary folder and
indexes it with BIN_DIR/vaultctx (--model DIR for vectors; BM25 only
without). Then:

1. times N (default 40) `vaultctx search` processes, spawn to exit, one
   query each from eval/large-queries.jsonl: reader p50 before;
2. starts 4 reader loops (the same searches, back to back), appends a line
   to FRACTION (default 0.04) of the notes, chosen with a fixed seed, and
   runs `vaultctx index` (incremental) while the loops run, then stops them;
3. reports the size of the index's -wal file once the run has exited (the
   run checkpoints before it exits; a WAL that readers cannot checkpoint
   slows every later read);
4. times the same N searches again: reader p50 after, and after / before.

The two timings are interleaved with nothing else, so compare them with
each other only; the machine's load moves both. Everything is removed at
the end. Exit status 1 when the WAL is over 1 MiB (the issue's bound).
"""
import json, os, random, shutil, statistics, subprocess, sys, tempfile, threading, time

args = sys.argv[1:]
if not args or args[0].startswith("-"):
    sys.exit(__doc__)
bindir = os.path.abspath(args.pop(0))
here = os.path.dirname(os.path.abspath(__file__))
vault = os.path.join(here, "..", "..", "shared", "corpora", "large")
model, frac, nq = None, 0.04, 40
while args:
    a = args.pop(0)
    if a == "--model":
        model = os.path.abspath(args.pop(0))
    elif a == "--edit":
        frac = float(args.pop(0))
    elif a == "--queries":
        nq = int(args.pop(0))
    elif not a.startswith("-"):
        vault = a
    else:
        sys.exit(f"unknown flag {a}\n{__doc__}")
vaultctx = os.path.join(bindir, "vaultctx")
queries = [json.loads(l)["query"] for l in open(os.path.join(here, "..", "eval", "large-queries.jsonl"))][:nq]
tmp = tempfile.mkdtemp(prefix="vaultctx-wal-")
try:
    v, db = os.path.join(tmp, "v"), os.path.join(tmp, "i.db")
    shutil.copytree(vault, v, ignore=shutil.ignore_patterns(".*"))
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"), XDG_STATE_HOME=os.path.join(tmp, "state"),
               XDG_CONFIG_HOME=os.path.join(tmp, "config"), VAULTCTX_DB=db)
    index = [vaultctx, "index", "--vault", v, "--db", db] + (["--model", model] if model else ["--no-model"])
    subprocess.run(index + ["--full"], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if model:
        env["VAULTCTX_MODEL"] = model
    search = [vaultctx, "search", "--db", db] + ([] if model else ["--mode", "bm25"])

    def timed():
        ms = []
        for q in queries:
            t = time.perf_counter_ns()
            subprocess.run(search + ["--", q], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            ms.append((time.perf_counter_ns() - t) / 1e6)
        return statistics.median(ms)

    before = timed()
    stop = threading.Event()
    failed = []

    def loop(i):
        k = i
        while not stop.is_set():
            r = subprocess.run(search + ["--", queries[k % len(queries)]], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if r.returncode != 0:
                failed.append(r.stderr.decode(errors="replace").strip())
            k += 4

    readers = [threading.Thread(target=loop, args=(i,)) for i in range(4)]
    for t in readers:
        t.start()
    time.sleep(1)
    notes = sorted(os.path.join(d, f) for d, _, fs in os.walk(v) for f in fs if f.endswith(".md"))
    edited = random.Random(17).sample(notes, max(1, int(frac * len(notes))))
    for f in edited:
        with open(f, "a") as fh:
            fh.write("\nedited while readers read\n")
    t0 = time.perf_counter()
    run = subprocess.run(index, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    secs = time.perf_counter() - t0
    wal = os.path.getsize(db + "-wal") if os.path.exists(db + "-wal") else 0
    stop.set()
    for t in readers:
        t.join()
    after = timed()
    print(f"incremental run over {len(edited)} edited notes of {len(notes)}: {secs:.1f} s, exit {run.returncode}")
    print(f"WAL left behind: {wal} bytes ({wal / 1048576:.2f} MiB; bound 1 MiB)")
    print(f"reader p50 spawn to exit: before {before:.1f} ms, after {after:.1f} ms, after/before {after / before:.3f}")
    print(f"failed reads during the run: {len(failed)}" + (f" (first: {failed[0]})" if failed else ""))
    sys.exit(1 if wal > 1 << 20 or run.returncode != 0 or failed else 0)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
