#!/usr/bin/env python3
"""Write-to-indexed latency of `vaultctx watch` (issue 15).

    scripts/watch-latency.py VAULTCTX_BIN CONFIG [ROUNDS]

Starts `VAULTCTX_BIN --config CONFIG watch`, waits for its first run, then
ROUNDS times (default 10) each: edits one note in place, saves another the
way editors do atomically (write a temp file beside it, rename it over),
and, once a round, rewrites 1,000 notes at once (a `git checkout`). For
each it times from the last write to the end of the watch run that
indexed it (the run's log line, written after its commit), checks with
`vaultctx search --mode bm25` that the new words are found, and counts
the runs a 1,000-note burst took. It prints p50/p95/max per case. The
notes are restored and re-indexed at the end.
"""
import os, shutil, statistics, subprocess, sys, tempfile, time

binary, config = sys.argv[1:3]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 10
vault = None
for line in open(config):
    if line.strip().startswith("vault"):
        vault = line.split("=", 1)[1].strip().strip('"')
notes = []
for root, dirs, files in os.walk(vault):
    dirs[:] = sorted(d for d in dirs if not d.startswith("."))
    notes += [os.path.join(root, f) for f in sorted(files) if f.endswith(".md")]
    if len(notes) >= 1100:
        break
backup = tempfile.mkdtemp()
for i, n in enumerate(notes[:1002]):
    shutil.copy2(n, os.path.join(backup, str(i)))
log = open(os.path.join(backup, "watch.log"), "w+")
w = subprocess.Popen([binary, "--config", config, "watch"], stderr=log, stdout=subprocess.DEVNULL)


def runs():
    log.flush()
    with open(log.name) as f:
        return [l for l in f if "msg=indexed" in l]


def wait_run(after):
    """Seconds from now until a run beyond `after` runs is logged."""
    t = time.perf_counter()
    while len(runs()) <= after:
        time.sleep(0.005)
    return time.perf_counter() - t


def found(word, note):
    out = subprocess.run([binary, "--config", config, "search", "--mode", "bm25", "-k", "3", "--", word],
                         capture_output=True, text=True).stdout
    return os.path.relpath(note, vault) in out


def report(name, xs):
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]
    print(f"{name:12s} p50 {statistics.median(xs):5.2f} s  p95 {p95:5.2f} s  max {xs[-1]:5.2f} s  (n={len(xs)})")


try:
    wait_run(0)
    edit, atomic, burst, burst_runs, missed = [], [], [], [], 0
    for r in range(rounds):
        n0 = len(runs())
        word = f"zqedit{r}x"
        with open(notes[0], "a") as f:
            f.write(f"\n{word} appended by watch-latency.\n")
        edit.append(wait_run(n0))
        missed += not found(word, notes[0])

        n0 = len(runs())
        word = f"zqatomic{r}x"
        tmp = os.path.join(os.path.dirname(notes[1]), "." + os.path.basename(notes[1]) + ".tmp")
        with open(notes[1]) as src, open(tmp, "w") as f:
            f.write(src.read() + f"\n{word} saved atomically by watch-latency.\n")
        os.rename(tmp, notes[1])
        atomic.append(wait_run(n0))
        missed += not found(word, notes[1])

        if r < 3:
            n0 = len(runs())
            for n in notes[2:1002]:
                with open(n, "a") as f:
                    f.write(f"\ncheckout {r}\n")
            burst.append(wait_run(n0))
            time.sleep(3)  # any later run of the burst shows up by now
            burst_runs.append(len(runs()) - n0)
    report("edit", edit)
    report("atomic save", atomic)
    report("1,000 notes", burst)
    print(f"1,000 notes  runs per burst: {burst_runs}; words not found after their run: {missed}")
finally:
    w.terminate()
    code = w.wait()
    print(f"watch exited {code} on SIGTERM")
    for i, n in enumerate(notes[:1002]):
        shutil.copy2(os.path.join(backup, str(i)), n)
    subprocess.run([binary, "--config", config, "index"], capture_output=True)
    shutil.rmtree(backup, ignore_errors=True)
