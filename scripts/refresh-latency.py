#!/usr/bin/env python3
"""Spawn-to-exit latency of the SessionStart refresh (issue 15).

    scripts/refresh-latency.py BIN_DIR CONFIG [ROUNDS]

BIN_DIR holds vaultctx and vaultctx-userprompt (as install.sh puts them);
CONFIG is a vaultctx config naming the vault, index and model. The vault's
index must be up to date. Measures, ROUNDS times each (default 30):

  fresh      SessionStart with nothing changed (a stat walk, nothing else);
  handoff    SessionStart right after 500 notes were added (later rounds:
             rewritten): it hands them to a background `vaultctx index
             --background` and returns; the script waits for that run to
             end before the next round;
  inline     SessionStart right after one note was added (indexed inline),
             then the first prompt, which must name the note.

It prints p50, p95 and max wall time per case, and for `inline` whether
every first prompt found its note. The notes are added under
VAULT/zz-refresh-latency/ and removed at the end (and indexed away). The
machine is shared: compare cases within one run.
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time

bindir, config = sys.argv[1:3]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 30
vault = None
for line in open(config):
    if line.strip().startswith("vault"):
        vault = line.split("=", 1)[1].strip().strip('"')
tmp = tempfile.mkdtemp()
hooklog = tmp + "/hook.log"
env = dict(os.environ, VAULTCTX_CONFIG=config, XDG_STATE_HOME=tmp + "/state", XDG_CACHE_HOME=tmp + "/cache",
           VAULTCTX_LOG=hooklog)
hook = os.path.join(bindir, "vaultctx-userprompt")
vaultctx = os.path.join(bindir, "vaultctx")
extra = os.path.join(vault, "zz-refresh-latency")
start = json.dumps({"session_id": "latency", "hook_event_name": "SessionStart", "source": "startup"}).encode()


def run(stdin):
    t = time.perf_counter_ns()
    p = subprocess.run([hook], input=stdin, env=env, capture_output=True)
    ms = (time.perf_counter_ns() - t) / 1e6
    if p.returncode != 0 or p.stderr:
        sys.exit(f"hook failed: {p.returncode} {p.stderr!r}")
    return ms, p.stdout.decode()


def action():
    """The last refresh action the hook logged (fresh, indexed, "handed off")."""
    last = ""
    for line in open(hooklog):
        if 'msg="index refresh"' in line:
            last = line.split("action=", 1)[1].split(" reason=", 1)[0].strip('"')
    return last


def session_start(want):
    ms, _ = run(start)
    if action() != want:
        sys.exit(f"SessionStart did {action()!r}, want {want!r}")
    return ms


def refreshing():
    out = subprocess.run([vaultctx, "status", "--json"], env=env, capture_output=True, check=True).stdout
    return json.loads(out)["refreshing"]


def settle():
    while refreshing():
        time.sleep(0.2)


def write_notes(n, tag, name=None):
    os.makedirs(extra, exist_ok=True)
    for i in range(n):
        with open(os.path.join(extra, f"{name or tag}-{i:04d}.md"), "w") as f:
            f.write(f"# Latency note {tag} {i}\n\nA note about pruning quince number {i} of batch {tag}, "
                    "written by scripts/refresh-latency.py to measure the SessionStart refresh.\n")


def report(name, xs):
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]
    print(f"{name:8s} p50 {statistics.median(xs):7.1f} ms  p95 {p95:7.1f} ms  max {xs[-1]:7.1f} ms  (n={len(xs)})")


try:
    settle()
    fresh = [session_start("fresh") for _ in range(rounds)]
    report("fresh", fresh)

    handoff = []
    for r in range(max(1, rounds // 3)):
        write_notes(500, f"h{r}", "h")  # 500 new notes, then 500 rewritten
        handoff.append(session_start("handed off"))
        time.sleep(0.5)
        settle()
    report("handoff", handoff)
    shutil.rmtree(extra, ignore_errors=True)
    run(start)
    settle()

    inline, found = [], 0
    for r in range(max(1, rounds // 3)):
        tag = f"i{r}"
        write_notes(1, tag)
        inline.append(session_start("indexed"))
        prompt = {"session_id": "", "hook_event_name": "UserPromptSubmit",
                  "prompt": f"when should quince number 0 of batch {tag} be pruned?"}
        _, out = run(json.dumps(prompt).encode())
        found += os.path.join(extra, f"{tag}-0000.md") in out
    report("inline", inline)
    print(f"inline   the first prompt named the new note in {found} of {len(inline)} sessions")
finally:
    shutil.rmtree(extra, ignore_errors=True)
    subprocess.run([vaultctx, "index"], env=env, capture_output=True)
    shutil.rmtree(tmp, ignore_errors=True)
