#!/usr/bin/env python3
"""Runs the fidelity cases of cases.py and writes one folder per case.

    record.py --work W --out DIR [--only NAME ...] [--list] [--check]

For each case, in the order of cases.py: run its `setup` (bash -c, output not
recorded), then run its `command` with `bash -c` in its `cwd`, reading stdout
and stderr on separate pipes (their bytes exactly, and the order in which the
chunks arrived, for PostToolUseFailure's interleaved `error`), and write
DIR/<name>/raw/stdout.bin, raw/stderr.bin, posttooluse.json, meta.json, and
posttoolusefailure.json when the exit status is not 0.

Lines to keep are chosen in cases.py by reading the output: `must_keep`
(exact substrings; exact keep lines are added), `keep` (full lines: an exact
line, {"re": regex, "n": count}, or {"tail": n} for the last n non-blank
lines) and `anomalies` (regexes,
each matching exactly one line). The lines they select are written verbatim
to meta.json. A selector that selects the wrong number of lines, a
must_keep substring that is not in the output, or an output under 4 KB is
reported, and the exit status is 1, so a re-capture says where the
choices no longer fit.

--check re-reads the written folders and checks them without running anything.
"""
import argparse
import datetime as dt
import hashlib
import json
import os
import re
import selectors
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases as casedefs  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
THRESHOLD = 4096


def decode(b):
    """Decodes as Claude Code would pass the text: invalid UTF-8 becomes U+FFFD."""
    n = [0]

    def count(err):
        n[0] += err.end - err.start
        return ("\ufffd", err.end)

    import codecs
    name = "fidelity-count-%d" % id(n)
    codecs.register_error(name, count)
    return b.decode("utf-8", name), n[0]


def count_lines(s):
    if not s:
        return 0
    return s.count("\n") + (0 if s.endswith("\n") else 1)


def display(line):
    """The line as a terminal shows it: ANSI escapes removed, the last non-empty \\r segment."""
    line = ANSI.sub("", line)
    if "\r" in line:
        segs = [s for s in line.split("\r") if s != ""]
        line = segs[-1] if segs else ""
    return line


def display_lines(s):
    if not s:
        return []
    parts = s.split("\n")
    if s.endswith("\n"):
        parts = parts[:-1]
    return [display(p) for p in parts]


def run(cmd, cwd, env, max_s):
    """Runs cmd with bash -c; returns stdout bytes, stderr bytes, chunks in arrival order, status, ms."""
    t0 = time.monotonic()
    p = subprocess.Popen(["bash", "-c", cmd], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    sel = selectors.DefaultSelector()
    sel.register(p.stdout, selectors.EVENT_READ, "stdout")
    sel.register(p.stderr, selectors.EVENT_READ, "stderr")
    out = {"stdout": bytearray(), "stderr": bytearray()}
    chunks = []
    open_ = 2
    while open_:
        left = max_s - (time.monotonic() - t0)
        if left <= 0:
            os.killpg(p.pid, signal.SIGKILL)
            raise RuntimeError("case ran over %ds: %s" % (max_s, cmd))
        for key, _ in sel.select(timeout=min(left, 1.0)):
            data = os.read(key.fileobj.fileno(), 65536)
            if not data:
                sel.unregister(key.fileobj)
                open_ -= 1
                continue
            out[key.data] += data
            chunks.append((key.data, data))
    rc = p.wait()
    ms = int((time.monotonic() - t0) * 1000)
    return bytes(out["stdout"]), bytes(out["stderr"]), chunks, rc, ms


def select_lines(spec, so_lines, se_lines, comb_lines, problems, name):
    chosen = []
    for item in spec:
        if isinstance(item, str):
            if item not in so_lines and item not in se_lines:
                problems.append("%s: keep line not in output: %r" % (name, item))
            chosen.append(item)
        elif "tail" in item:
            nonblank = [l for l in comb_lines if l.strip()]
            chosen.extend(nonblank[-item["tail"]:])
        else:
            rx = re.compile(item["re"])
            hits = [l for l in so_lines + se_lines if rx.search(l)]
            n = item.get("n", 1)
            if (n == "+" and not hits) or (n != "+" and len(hits) != n):
                problems.append("%s: /%s/ selected %d lines, want %s: %r" % (name, item["re"], len(hits), n, hits[:4]))
            chosen.extend(hits)
    seen, res = set(), []
    for l in chosen:
        if l not in seen:
            seen.add(l)
            res.append(l)
    return res


def volatile_examples(a_lines, b_lines, limit=10):
    """Tokens of run a that differ from run b on lines at the same place."""
    seen = []
    for la, lb in zip(a_lines, b_lines):
        if la == lb:
            continue
        ta, tb = la.split(), lb.split()
        for x, y in zip(ta, tb):
            if x != y and x not in seen:
                seen.append(x)
                if len(seen) >= limit:
                    return seen
    return seen


def mask(line):
    line = re.sub(r"[0-9a-f]{8,}(-[0-9a-f]{3,})*", "H", line)
    return re.sub(r"\d+", "N", line)


def tool_use_id(name):
    return "toolu_01" + hashlib.sha256(name.encode()).hexdigest()[:24]


def write_case(c, outdir, so, se, chunks, rc, ms, problems):
    d = os.path.join(outdir, c["name"])
    os.makedirs(os.path.join(d, "raw"), exist_ok=True)
    for f in os.listdir(d):
        if f.endswith(".json"):
            os.remove(os.path.join(d, f))
    with open(os.path.join(d, "raw", "stdout.bin"), "wb") as f:
        f.write(so)
    with open(os.path.join(d, "raw", "stderr.bin"), "wb") as f:
        f.write(se)
    so_t, n1 = decode(so)
    se_t, n2 = decode(se)
    interrupted = bool(c.get("interrupted", False))
    payload = {
        "session_id": "test-session", "transcript_path": "/tmp/transcript.jsonl", "cwd": c["cwd"],
        "permission_mode": "default", "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": c["command"], "description": c["description"]},
        "tool_response": {"stdout": so_t, "stderr": se_t, "interrupted": interrupted, "isImage": False},
        "tool_use_id": tool_use_id(c["name"]),
    }
    with open(os.path.join(d, "posttooluse.json"), "w") as f:
        json.dump(payload, f, ensure_ascii=False)
    failure_file = None
    if rc != 0:
        comb, _ = decode(b"".join(x for _, x in chunks))
        fail = {
            "session_id": "test-session", "transcript_path": "/tmp/transcript.jsonl", "cwd": c["cwd"],
            "permission_mode": "default", "hook_event_name": "PostToolUseFailure", "tool_name": "Bash",
            "tool_input": {"command": c["command"], "description": c["description"]},
            "tool_use_id": tool_use_id(c["name"]),
            "error": "Exit code %d\n%s" % (rc, comb.rstrip("\n")),
            "is_interrupt": interrupted, "duration_ms": ms,
        }
        failure_file = "posttoolusefailure.json"
        with open(os.path.join(d, failure_file), "w") as f:
            json.dump(fail, f, ensure_ascii=False)
    with open(os.path.join(d, "raw", "chunks.json"), "w") as f:
        # the arrival order of the pipes' chunks: [stream, byte count], to rebuild an interleaving
        json.dump([[s, len(x)] for s, x in chunks], f)
    meta = {
        "name": c["name"], "command": c["command"], "cwd": c["cwd"], "description": c["description"],
        "kind": c["kind"], "exit_status": rc, "interrupted": interrupted,
        "bytes_stdout": len(so), "bytes_stderr": len(se),
        "lines": count_lines(so_t) + count_lines(se_t),
        "lines_stdout": count_lines(so_t), "lines_stderr": count_lines(se_t),
        "chars": len(so_t) + len(se_t),
        "pair_of": c.get("pair_of"), "pair_kind": c.get("pair_kind"),
        "must_keep": [], "must_keep_lines": [], "anomalies": [], "should_keep": [],
        "volatile_examples": [], "non_utf8_bytes_replaced": n1 + n2,
        "posttoolusefailure_file": failure_file,
        "captured_at": dt.datetime.now(dt.timezone.utc).isoformat(),
        "duration_ms": ms, "notes": c.get("notes", ""),
    }
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f, ensure_ascii=False, indent=1)
        f.write("\n")
    return d


def load_raw(d):
    so = open(os.path.join(d, "raw", "stdout.bin"), "rb").read()
    se = open(os.path.join(d, "raw", "stderr.bin"), "rb").read()
    sizes = json.load(open(os.path.join(d, "raw", "chunks.json")))
    pos = {"stdout": 0, "stderr": 0}
    src = {"stdout": so, "stderr": se}
    comb = bytearray()
    for s, n in sizes:
        comb += src[s][pos[s]:pos[s] + n]
        pos[s] += n
    return so, se, bytes(comb)


def finish(c, outdir, problems, all_cases):
    """Fills the keep lists of a written case from its raw output, and checks them."""
    d = os.path.join(outdir, c["name"])
    so, se, comb = load_raw(d)
    so_t, se_t, comb_t = decode(so)[0], decode(se)[0], decode(comb)[0]
    so_l, se_l, comb_l = display_lines(so_t), display_lines(se_t), display_lines(comb_t)
    meta = json.load(open(os.path.join(d, "meta.json")))
    name = c["name"]
    for s in c.get("must_keep", []):
        if s not in so_t and s not in se_t:
            problems.append("%s: must_keep not in output: %r" % (name, s))
    anomalies = select_lines([{"re": r, "n": 1} for r in c.get("anomalies", [])], so_l, se_l, comb_l, problems, name)
    keep = select_lines(c.get("keep", []), so_l, se_l, comb_l, problems, name)
    if c.get("interrupted"):
        keep = keep + [l for l in select_lines([{"tail": 3}], so_l, se_l, comb_l, problems, name) if l not in keep]
    # in output order: anomalies first, then the other kept lines
    order = {}
    for i, l in enumerate(comb_l):
        order.setdefault(l, i)
    anomalies.sort(key=lambda l: order.get(l, 0))
    keep = anomalies + sorted([l for l in keep if l not in anomalies], key=lambda l: order.get(l, 0))
    must = list(c.get("must_keep", []))
    must += [k for k in c.get("keep", []) if isinstance(k, str) and k not in must]
    meta["must_keep"] = must
    meta["must_keep_lines"] = keep
    meta["anomalies"] = anomalies
    meta["should_keep"] = c.get("should_keep", [])
    for s in meta["should_keep"]:
        if s not in so_t and s not in se_t:
            problems.append("%s: should_keep not in output: %r" % (name, s))
    if len(so) + len(se) < THRESHOLD and not c.get("small_ok"):
        problems.append("%s: output is %d bytes, under the hook's 4 KB threshold" % (name, len(so) + len(se)))
    other = c.get("pair_of")
    if other:
        od = os.path.join(outdir, other)
        if os.path.exists(os.path.join(od, "raw", "chunks.json")):
            oso, ose, _ = load_raw(od)
            ol = display_lines(decode(oso)[0]) + display_lines(decode(ose)[0])
            meta["volatile_examples"] = volatile_examples(so_l + se_l, ol)
            oc = next(x for x in all_cases if x["name"] == other)
            oa = select_lines([{"re": r, "n": 1} for r in oc.get("anomalies", [])],
                              display_lines(decode(oso)[0]), display_lines(decode(ose)[0]), [], [], other)
            if [mask(x) for x in oa] != [mask(x) for x in anomalies]:
                problems.append("%s: anomalies differ from %s beyond digits and ids: %r vs %r" % (name, other, anomalies, oa))
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f, ensure_ascii=False, indent=1)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    subst = {"W": a.work, "HERE": HERE}
    all_cases = casedefs.cases(subst)
    names = [c["name"] for c in all_cases]
    assert len(names) == len(set(names)), "duplicate case names"
    for c in all_cases:
        assert c["kind"] in ("content", "log", "test", "build", "install", "progress", "interrupted", "other"), c["name"]
        if c.get("pair_of"):
            assert c["pair_of"] in names, c["name"]
    if a.list:
        for c in all_cases:
            print(c["name"], c["kind"], c["command"])
        return 0
    todo = [c for c in all_cases if not a.only or c["name"] in a.only or any(c["name"].startswith(p.rstrip("*")) for p in a.only if p.endswith("*"))]
    problems = []
    env = casedefs.env(subst)
    if not a.check:
        for c in todo:
            print("== %s: %s" % (c["name"], c["command"]), flush=True)
            os.makedirs(c["cwd"], exist_ok=True)
            if c.get("setup"):
                r = subprocess.run(["bash", "-c", c["setup"]], cwd=c["cwd"], env=env)
                if r.returncode != 0:
                    problems.append("%s: setup failed (%d)" % (c["name"], r.returncode))
                    continue
            so, se, chunks, rc, ms = run(c["command"], c["cwd"], env, c.get("max_s", 900))
            write_case(c, a.out, so, se, chunks, rc, ms, problems)
            print("   exit %d, %d+%d bytes, %d ms" % (rc, len(so), len(se), ms), flush=True)
            if "exit" in c and c["exit"] != rc:
                problems.append("%s: exit status %d, expected %d" % (c["name"], rc, c["exit"]))
    for c in todo:
        if os.path.exists(os.path.join(a.out, c["name"], "raw", "chunks.json")):
            finish(c, a.out, problems, all_cases)
        else:
            problems.append("%s: not captured" % c["name"])
    # a pair's first member gets its volatile examples once the second exists
    for c in all_cases:
        if c not in todo and c.get("pair_of") in [t["name"] for t in todo] and os.path.exists(os.path.join(a.out, c["name"], "meta.json")):
            finish(c, a.out, problems, all_cases)
    for p in problems:
        print("PROBLEM", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
