"""The fidelity cases: what to run, where, and what an extract must keep.

cases(subst) returns the list record.py runs, in order (a case's `setup`
may prepare the state the following cases read). subst holds W (the work
dir capture.sh prepared) and HERE (this folder). Fields:
  name, kind, cwd, command, description    as in meta.json / the payload
  setup        bash run in cwd before the command; its output is not recorded
  pair_of, pair_kind                       the other run of the same command
  must_keep    exact substrings (volatile parts left off)
  keep         full lines: "exact line", {"re": regex, "n": count or "+"},
               {"tail": n} (the last n non-blank lines); exact lines are also
               must_keep substrings
  anomalies    regexes, each selecting exactly one line (the injected anomalies)
  interrupted  tool_response.interrupted; the last 3 non-blank lines are kept too
  exit         the exit status the case must have (checked)
  small_ok     the output may be under the hook's 4 KB threshold
  notes
The keep choices were made by reading the captured output.
"""
import os


def env(s):
    e = dict(os.environ)
    for k in ("RUST_BACKTRACE", "PIP_FIND_LINKS", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"):
        e.pop(k, None)
    e["LANG"] = "C.UTF-8"
    e["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    e["GOFLAGS"] = "-buildvcs=false"
    return e


def pair(base, **kw):
    """Two runs of the same command, base_a and base_b (a timing pair unless pair_kind says otherwise)."""
    a = dict(kw, name=base + "_a", pair_of=base + "_b")
    b = dict(kw, name=base + "_b", pair_of=base + "_a")
    a.setdefault("pair_kind", "timing")
    b.setdefault("pair_kind", "timing")
    return [a, b]


def cases(s):
    W = s["W"]
    port = os.environ.get("CAPTURE_PORT", "18765")
    repo = W + "/repo"
    fx = W + "/fx"
    logs = W + "/logs"
    gen = "python3 %s/genlog.py" % logs
    out = []
    add = out.extend

    # ---------------------------------------------------------------- content
    add([
        dict(name="content_cat_readme", kind="content", cwd=repo, command="cat README.md",
             description="Show the README",
             must_keep=["about 4 minutes here", "| `vaultctx search`, process spawn to exit, p50 / p95 |"],
             keep=[{"re": r"^\(Go modules and the cgo build of SQLite, about 4 minutes here\)"},
                   {"re": r"^\| hook `vaultctx-userprompt`, spawn to exit \|"},
                   {"re": r"^\| full index, 16,673 files, 162,728 chunks \|"}],
             notes="The whole README (file content). Numbers with units (4 minutes, 7 minutes, 23 ms, 3.1 ms p50, "
                   "5.9 MB) are the file's data and must pass unchanged; nothing may be cut from the middle."),
        dict(name="content_sed_readme_1_200", kind="content", cwd=repo, command="sed -n 1,200p README.md",
             description="Read the first 200 lines of the README",
             must_keep=["about 4 minutes here"],
             keep=[{"re": r"^\(Go modules and the cgo build of SQLite, about 4 minutes here\)"},
                   {"re": r"^7 minutes on 2 cores"}],
             notes="A sed -n range of a file: the issue's example ('about 4 minutes' became 'about <dur>')."),
        dict(name="content_cat_config_go", kind="content", cwd=repo, command="cat core/config/config.go",
             description="Read the config package",
             keep=[{"re": r"^\tDeadlineMS\s+int\s+`toml:\"deadline_ms\"`"}],
             notes="A whole Go source file (the issue's example where 84 lines were omitted from the middle). "
                   "Every line is content."),
        dict(name="content_cat_n_extract_go", kind="content", cwd=repo, command="cat -n core/compress/extract.go",
             description="Read the extractor with line numbers",
             keep=[{"re": r"^\s+19\t\tDefaultThresholdBytes = 4096$"}, {"tail": 1}],
             notes="A line-numbered listing over 30,000 characters: Claude Code would hand the hook only the "
                   "first 30,000 and save the rest (persistedOutputPath)."),
        dict(name="content_cat_n_full_toml", kind="content", cwd=repo, command="cat -n core/config/testdata/full.toml",
             description="Show the full example config",
             keep=[{"re": r"\tdeadline_ms = 1500$"}],
             notes="A commented config file with timeouts and sizes (deadline_ms = 1500); cat -n prefixes tabs."),
        dict(name="content_sed_http_server", kind="content", cwd=repo,
             command="sed -n 2940,3260p /usr/local/go/src/net/http/server.go",
             description="Read net/http's Server struct and its timeouts",
             keep=[{"re": r"^\tReadHeaderTimeout time\.Duration$"}, {"re": r"^\tIdleTimeout time\.Duration$"}],
             notes="A region of a Go standard library file: the Server struct's timeout fields and docs "
                   "(e.g. 'ReadTimeout is the maximum duration')."),
        dict(name="content_nl_transport_head", kind="content", cwd=repo,
             command="nl -ba /usr/local/go/src/net/http/transport.go | head -n 420",
             description="Read the start of net/http's transport with line numbers",
             keep=[{"re": r"^\s+\d+\t\tIdleConnTimeout:\s+90 \* time\.Second,$"},
                   {"re": r"^\s+\d+\t\tTLSHandshakeTimeout:\s+10 \* time\.Second,$"}],
             notes="nl -ba listing of DefaultTransport (90 * time.Second, 10 * time.Second, 1 * time.Second)."),
        dict(name="content_tail_time_format", kind="content", cwd=repo,
             command="tail -n 380 /usr/local/go/src/time/format.go",
             description="Read the end of time/format.go (ParseDuration)",
             keep=[{"re": r"^func ParseDuration\(s string\) \(Duration, error\) \{$"}],
             notes="The tail of a source file: ParseDuration and its unit table (\"ns\", \"us\", \"ms\") - "
                   "duration-looking text that is code."),
        dict(name="content_head_eval_readme", kind="content", cwd=repo, command="head -n 140 eval/README.md",
             description="Read the eval README",
             keep=[{"re": r"^\| set \| mode \| recall@10 \| nDCG@10 \| MRR@10 \|"}],
             notes="Markdown with result tables (nDCG@10, recall, ms)."),
        dict(name="content_jq_chunk_golden", kind="content", cwd=repo,
             command="jq . core/internal/chunk/testdata/golden/edge__10_toml_frontmatter__overview.md.json",
             description="Pretty-print a chunker golden file",
             keep=['    "section": "Overview",', {"tail": 1}],
             notes="jq of a JSON file: content."),
        dict(name="content_jq_lock_jest", kind="content", cwd=fx + "/jest",
             command="jq '.packages | with_entries(select(.key | startswith(\"node_modules/@jest/\")))' package-lock.json",
             description="List the @jest packages in the lock file",
             keep=[{"re": r'^  "node_modules/@jest/core": \{$'}],
             notes="jq query of the real package-lock.json of the jest fixture: versions, integrity hashes, "
                   "resolved URLs are data."),
        dict(name="content_diff_u_readme_versions", kind="content", cwd=W + "/versions",
             command="diff -u README.ea7b004.md README.1b96882.md", exit=1,
             description="Compare two README versions",
             keep=[{"re": r"^--- README\.ea7b004\.md\t"}, {"re": r"^\+\+\+ README\.1b96882\.md\t"},
                   {"re": r"^@@ ", "n": "+"}, {"re": r"^[-+]\| ", "n": "+"}],
             notes="diff -u of the README at two commits: bench tables whose numbers changed. The -/+ rows "
                   "differ only in numbers with units; every hunk header must stay. Exit 1 (differences)."),
    ])

    # -------------------------------------------------------------------- git
    add([
        dict(name="git_show_bench_table", kind="content", cwd=repo, command="git show 1b96882",
             description="Show the commit that updated the bench table",
             keep=[{"re": r"^diff --git a/README\.md b/README\.md$"}, {"re": r"^@@ ", "n": "+"},
                   {"re": r"^[-+]\| ", "n": "+"}],
             notes="git show of a README bench update: rows whose only change is numbers with units (ms, s, MB)."),
        dict(name="git_show_ivf_probe", kind="content", cwd=repo, command="git show 929ebf2",
             description="Show the IVF probe change",
             keep=[{"re": r"^diff --git ", "n": "+"}, {"re": r"^@@ ", "n": "+"}],
             notes="A change of a constant and the measured numbers that go with it (recall@10 0.980, 3.1 ms p50)."),
        dict(name="git_show_hookio_scan", kind="content", cwd=repo, command="git show 5fea81d",
             description="Show the hookio scanner commit",
             keep=[{"re": r"^diff --git ", "n": "+"}, {"re": r"^@@ ", "n": "+"}],
             notes="A 7-file commit with code and README numbers (CPU p50 96 vs 103 ms on 1 MB, 4 MiB)."),
        dict(name="git_log_p_readme_14", kind="content", cwd=repo, command="git log -p -n 14 -- README.md",
             description="Show the last 14 README changes",
             keep=[{"re": r"^commit [0-9a-f]{40}$", "n": 14}, {"re": r"^@@ ", "n": "+"}, {"tail": 3}],
             notes="git log -p over 30,000 characters: 14 commits of README edits, many changing bench numbers."),
        dict(name="git_diff_range_8_2", kind="content", cwd=repo, command="git diff HEAD~8 HEAD~2",
             description="Diff the changes between HEAD~8 and HEAD~2",
             keep=[{"re": r"^diff --git ", "n": "+"}, {"re": r"^@@ ", "n": "+"}],
             notes="A ranged diff over 20 files (the issue's held-back case lost a diff --git header here). "
                   "Every file header and hunk header must survive any cut."),
        dict(name="git_diff_range_14_2", kind="content", cwd=repo, command="git diff HEAD~14 HEAD~2",
             description="Diff the changes between HEAD~14 and HEAD~2",
             keep=[{"re": r"^diff --git ", "n": "+"}, {"re": r"^@@ ", "n": "+"}, {"tail": 3}],
             notes="A ranged diff of about 70 KB: Claude Code would pass the hook the first 30,000 characters "
                   "and the path of the whole output."),
        dict(name="git_diff_readme_bench_range", kind="content", cwd=repo,
             command="git diff ea7b004..1b96882 -- README.md",
             description="Diff the README between two bench updates",
             keep=["diff --git a/README.md b/README.md", {"re": r"^@@ ", "n": "+"}, {"re": r"^[-+]\| ", "n": "+"}],
             notes="Table rows whose - and + lines differ only in numbers with units: if those are normalised "
                   "the diff says nothing."),
        dict(name="git_diff_worktree_readme", kind="content", cwd=W + "/wip", command="git diff",
             description="Show my uncommitted changes",
             keep=[{"re": r"^diff --git a/README\.md b/README\.md$"}, {"re": r"^@@ ", "n": "+"}],
             notes="An uncommitted edit (commit af13546's README bench update applied to its parent's tree)."),
    ])

    # ------------------------------------------------------------------- logs
    kv_gen = gen + " --format kv --log app.log --requests 3000 --seed 11 --concurrency 1 --inject 500@2210 --inject 503@2650:30000"
    add(pair("log_kv_tail_1500", kind="log", cwd=logs + "/kv", setup=kv_gen, command="tail -n 1500 app.log",
             description="Show the end of the app log",
             anomalies=[r" status=500 ", r" status=503 "],
             must_keep=["path=/api/checkout/8471 status=500", "path=/api/export/64 status=503 dur=300"],
             notes="Access log (key=value, status=200 dur=23ms) of a real local server (logserver.py) under a "
                   "sequential load generator (genlog.py, seed 11, 3,000 requests). Injected: one 500 (a checkout "
                   "that raises) and one 503 after a 30 s upstream wait (dur=300xxms among 18-40 ms). DEBUG cache "
                   "lines interleave. The two runs send the same requests in the same order; lines differ only in "
                   "timestamps, durations, request ids and client ports."))
    # run a's log is regenerated by run b's setup, so the grep case gets its own log
    add([
        dict(name="log_kv_grep_v_debug", kind="log", cwd=logs + "/kvc",
             setup=gen + " --format kv --log app.log --requests 1400 --seed 5 --concurrency 4 "
                         "--inject 500@610 --inject slow@1020:9000",
             command="grep -v DEBUG app.log",
             description="Show the app log without debug lines",
             anomalies=[r" status=500 ", r" dur=9\d{3}ms "],
             must_keep=["path=/api/checkout/5471 status=500", "path=/api/report/69 status=200 dur=90"],
             notes="key=value access log, 4 concurrent clients (lines out of request order). Injected: a 500 and "
                   "one 9 s request (dur=90xxms) among 18-40 ms."),
        dict(name="log_combined_cat", kind="log", cwd=logs + "/nginx",
             setup=gen + " --format combined --log access.log --requests 1500 --seed 3 --concurrency 4 "
                         "--inject 500@400 --inject 503@900 --inject slow@1200:12000",
             command="cat access.log",
             description="Show the access log",
             anomalies=[r'" 500 \d+ "', r'" 503 \d+ "', r'" 200 \d+ "-" "[^"]*" 1\d\.\d{3}$'],
             must_keep=['"GET /api/checkout/5471 HTTP/1.1" 500 0 "-"', '"GET /api/export/68 HTTP/1.1" 503 30 "-"'],
             notes="nginx combined format with the request time in seconds at the end. Injected: a 500, a 503 "
                   "and one 12 s request (12.0xx among 0.018-0.040)."),
        dict(name="log_json_tail_1000", kind="log", cwd=logs + "/json",
             setup=gen + " --format json --log app.jsonl --requests 2600 --seed 8 --concurrency 4 "
                         "--inject 503@2000 --inject slow@2300:7500",
             command="tail -n 1000 app.jsonl",
             description="Show the last 1000 JSON log lines",
             anomalies=[r'"status": 503', r'"duration_ms": 7\d{3}\.'],
             must_keep=['"path": "/api/export/61", "status": 503', '"path": "/api/report/34", "status": 200, "duration_ms": 75'],
             notes="JSON lines (one object per request). Injected: a 503 and one 7.5 s request."),
    ])
    py_gen = gen + " --format pylog --log app.log --requests 1500 --seed 21 --concurrency 1 --inject 500@900 --inject slow@1200:5000"
    add(pair("log_pylog_traceback", kind="log", cwd=logs + "/pylog", setup=py_gen, command="grep -v DEBUG app.log",
             description="Show the service log without debug lines",
             anomalies=[r"ERROR   \[pid \d+\] shop\.http: unhandled error in checkout", r"^KeyError: 'sku-4471'$",
                        r"shop\.http: GET /api/checkout/\d+ -> 500 in ", r"-> 200 in 50\d\d\.\dms"],
             must_keep=["shop.http: unhandled error in checkout", "shop.http: GET /api/checkout/7471 -> 500 in ",
                        "shop.http: GET /api/report/74 -> 200 in 50"],
             keep=[r"Traceback (most recent call last):",
                   {"re": r'^  File ".*logserver\.py", line \d+, in (do_GET|checkout|reserve)$', "n": 3},
                   "    n = checkout(int(parts[-1]))", "    return reserve(cart)", "    left = INVENTORY[sku]"],
             notes="Python logging (asctime, level, pid, logger) of the same app, sequential load, seed 21. "
                   "Injected: one checkout that raises KeyError (logger.exception: the ERROR line, a single "
                   "traceback, then the 500 line) and one 5 s request (200 in 50xx ms among 18-40 ms). anomalies "
                   "holds the ERROR, exception and 500 lines of the first and the slow line; must_keep_lines adds "
                   "the traceback's frames."))

    # ------------------------------------------------------------ interrupted
    add([
        dict(name="interrupted_ping", kind="interrupted", cwd=W, command="timeout -s INT 5 ping -i 0.05 127.0.0.1",
             description="Ping localhost", interrupted=True, exit=124,
             must_keep=["--- 127.0.0.1 ping statistics ---", "0% packet loss"],
             notes="ping stopped by SIGINT after 5 s: it prints its statistics on the way out."),
        dict(name="interrupted_python_loop", kind="interrupted", cwd=W,
             command="timeout 3 python3 -c 'import time\nfor i in range(10**6):\n    print(f\"batch {i:6d}: 512 rows, "
                     "checksum {i*7919 % 100003:05d}\", flush=True)\n    time.sleep(0.004)'",
             description="Run the batch loop", interrupted=True, exit=124,
             notes="A Python loop printing a line per batch, killed by timeout (SIGTERM) after 3 s."),
        dict(name="interrupted_go_bench", kind="interrupted", cwd="/usr/local/go/src",
             command="timeout 15 go test -count=1 -run '^$' -bench . -benchtime 50ms bytes",
             description="Benchmark the bytes package", interrupted=True, exit=124,
             notes="go test -bench stopped by timeout (SIGTERM) mid-run: no PASS/ok line; where it stopped "
                   "depends on the machine's speed (the last line may be a name without its result)."),
        dict(name="interrupted_tail_f", kind="interrupted", cwd=logs + "/kvc",
             command="timeout 4 tail -n 200 -f app.log",
             description="Follow the app log", interrupted=True, exit=124,
             notes="tail -f of the log_kv_grep_v_debug log, stopped after 4 s; it had printed the last 200 lines."),
    ])

    # --------------------------------------------------------------- progress
    venv = W + "/tmp/venv"
    add(pair("progress_tqdm_train", kind="progress", cwd=fx + "/progress", command="python3 train.py",
             description="Run the training job",
             keep=[{"re": r"^final: w=2\.999 b=-0\.509"}, {"re": r"^epoch 3: loss"},
                   {"re": r"^epoch 3/3: 100%\|"}],
             must_keep=["final: w=2.999 b=-0.509 (true 3.000, -0.500)", "tokens: 98580"],
             notes="tqdm bars on stderr (\\r redraws, one physical line per bar), results on stdout. Rates and "
                   "[elapsed<remaining] columns differ between runs; so may the number of redraws."))
    add(pair("progress_wget_dots", kind="progress", cwd=W,
             command="wget -O /dev/null --limit-rate=4m http://127.0.0.1:%s/blob.bin" % port,
             description="Download the blob",
             must_keep=["200 OK", "Length: 12582912 (12M)", "/dev/null"],
             keep=[{"re": r"\(\S+ [KM]B/s\) - ‘/dev/null’ saved \[12582912/12582912\]$"}],
             notes="wget's dot progress (non-TTY): one line per 50K with a rate and ETA; a local python "
                   "http.server, rate-limited to 4 MB/s."))
    add(pair("install_pip_local_index", kind="install", cwd=W + "/tmp",
             setup="rm -rf venv && python3 -m venv venv",
             command=". venv/bin/activate && pip install --no-cache-dir --index-url http://127.0.0.1:%s/simple/ "
                     "--trusted-host 127.0.0.1 shopcli" % port,
             description="Install shopcli into the venv",
             must_keep=["Successfully installed shopapi-1.0.0", "Downloading http://127.0.0.1:%s/simple/shopdata/shopdata-1.2.9-py3-none-any.whl (9.0 MB)" % port],
             keep=[{"re": r"^Successfully installed shopapi-"}],
             notes="pip 23 (Debian's, in a fresh venv) resolving 20 wheels from a local simple index; each "
                   "download prints its rich progress bar once (non-TTY) with a volatile rate."))
    add(pair("build_cargo_vv", kind="build", cwd=fx + "/cargo", setup="cargo clean -q", command="cargo build -vv",
             description="Build the tariff crate verbosely",
             must_keep=["rate table generated with 6 zones", "Finished `dev` profile [unoptimized + debuginfo] target(s) in "],
             keep=[{"re": r"^warning: tariff@0\.3\.0: rate table generated with 6 zones"},
                   {"re": r"^    Finished `dev` profile"}, {"re": r"^  --> src/lib\.rs:12:9$"}],
             notes="cargo build -vv of a crate with a build.rs (its cargo:warning and rustc command lines) and "
                   "one unused-variable warning. Only the final time differs between runs."))
    add(pair("install_npm_verbose", kind="install", cwd=fx + "/npm", setup="rm -rf node_modules package-lock.json",
             command="npm install --no-audit --no-fund --verbose", pair_kind="reorder",
             description="Install the npm dependencies",
             must_keep=["added 52 packages in", "npm verbose exit 0"],
             keep=[{"re": r"^added \d+ packages in"}, {"re": r"^npm verbose exit 0$"}],
             notes="npm 11 --verbose with a warm cache (capture.sh pre-installs the same package.json). npm "
                   "fetches in parallel, so the two runs print the same kinds of lines in a different order: "
                   "pair_kind reorder, not timing."))

    # ------------------------------------------------------------------ tests
    add(pair("test_go_v_fail", kind="test", cwd=fx + "/gotest", command="go test -count=1 -v ./...", exit=1,
             description="Run the Go tests verbosely",
             must_keep=["--- FAIL: TestInterest (", "--- FAIL: TestInterest/1000.00@500bp (",
                        "--- FAIL: TestInterest/0.99@1200bp (",
                        "ledger_test.go:80: Interest(500) on 1000.00 = 4.16, want 4.17",
                        "ledger_test.go:80: Interest(1200) on 0.99 = 0.00, want 0.01",
                        "--- FAIL: TestStatementDeadline (", "ledger_test.go:90: statement took ",
                        "FAIL\texample.com/shop/ledger\t", "ok  \texample.com/shop/money\t"],
             keep=[{"re": r"^--- FAIL: TestInterest \("}, {"re": r"^    --- FAIL: TestInterest/1000\.00@500bp \("},
                   {"re": r"^    --- FAIL: TestInterest/0\.99@1200bp \("},
                   "    ledger_test.go:80: Interest(1200) on 0.99 = 0.00, want 0.01",
                   {"re": r"^    ledger_test\.go:80: Interest\(500\) on 1000\.00 = 4\.16, want 4\.17$"},
                   {"re": r"^--- FAIL: TestStatementDeadline \("},
                   {"re": r"^    ledger_test\.go:90: statement took \d+ms, budget 20ms$"},
                   {"re": r"^FAIL\texample\.com/shop/ledger\t"}, {"re": r"^ok  \texample\.com/shop/money\t"}],
             notes="Three packages, one failing (a rounding error and a deadline test whose message holds a "
                   "measured duration)."))
    add([
        dict(name="test_go_race", kind="test", cwd=fx + "/gotest", command="go test -race -count=1 -v ./cache ./money",
             exit=1, description="Run the cache tests with the race detector",
             must_keep=["WARNING: DATA RACE", "cache.go:38", "--- FAIL: TestConcurrentGet (", "--- FAIL: TestTTLChange (",
                        "race detected during execution of test", "FAIL\texample.com/shop/cache\t",
                        "ok  \texample.com/shop/money\t"],
             keep=[{"re": r"^WARNING: DATA RACE$", "n": "+"}, {"re": r"testing\.go:\d+: race detected during execution of test$", "n": "+"},
                   {"re": r"^--- FAIL: TestConcurrentGet \("}, {"re": r"^--- FAIL: TestConcurrentMiss \("},
                   {"re": r"^--- FAIL: TestTTLChange \("}, {"re": r"^FAIL\texample\.com/shop/cache\t"},
                   {"re": r"^ok  \texample\.com/shop/money\t"}],
             notes="Data races on Cache.Hits, Cache.Miss and Cache.TTL in three tests: goroutine ids, addresses "
                   "and the number of reports vary between runs; no pair."),
    ])
    add(pair("test_pytest_v_fail", kind="test", cwd=fx + "/pytest", command="python3 -m pytest -v", exit=1,
             description="Run the test suite",
             must_keep=["3 failed, 99 passed in "],
             keep=["FAILED tests/test_stock.py::test_take_unknown - KeyError: 'sku-99'",
                   "FAILED tests/test_stock.py::test_value - AssertionError: assert 20.5 == 9.5",
                   {"re": r"^FAILED tests/test_stock\.py::test_json_roundtrip - AssertionError"},
                   {"re": r"^=+ 3 failed, 99 passed in [\d.]+s =+$"},
                   "inventory/__init__.py:15: KeyError", "tests/test_stock.py:37: AssertionError"],
             notes="pytest 7 -v: 102 tests, 3 failures with tracebacks; object addresses, an epoch and the "
                   "duration differ between runs."))
    add(pair("test_pytest_pass", kind="test", cwd=fx + "/pytest", command="python3 -m pytest -v tests/test_report.py",
             description="Run the report tests",
             must_keep=["64 passed in "],
             keep=[{"re": r"^=+ 64 passed in [\d.]+s =+$"}],
             notes="All 64 pass; only the verdict line matters."))
    add(pair("test_jest_verbose_fail", kind="test", cwd=fx + "/jest", command="npx jest --verbose -i", exit=1,
             description="Run the jest suites",
             must_keep=["Tests:       4 failed, 86 passed, 90 total", "at Object.toBe (test/cart.test.js:20:49)",
                        "at Object.toEqual (test/cart.test.js:35:90)", "Received: NaN"],
             keep=[{"re": r"^    ✕ unknown country"}, {"re": r"^    ✕ with an unknown code"},
                   {"re": r"^    ✕ object shape"}, {"re": r"^    ✕ thousands separator"},
                   "  ● tax › unknown country", "  ● total › with an unknown code", "  ● total › object shape",
                   "  ● format › thousands separator",
                   "    TypeError: Cannot read properties of undefined (reading 'valueOf')",
                   "      at valueOf (src/cart.js:15:40)",
                   {"re": r"^Tests:\s+4 failed, 86 passed, 90 total$"}],
             notes="jest 29 --verbose in band (-i, so suites print in a fixed order). Per-test '(N ms)' appears "
                   "only on tests that took 1 ms or more, so which lines carry a time differs between runs."))
    add(pair("test_cargo_fail", kind="test", cwd=fx + "/cargo", setup="cargo clean -q",
             command="cargo test --no-fail-fast -- --test-threads=1", exit=101,
             description="Run the crate's tests",
             must_keep=["panicked at src/lib.rs:65:9:", "panicked at src/lib.rs:13:24:", "panicked at tests/zones.rs:15:1:",
                        "test result: FAILED. 4 passed; 2 failed;", "test result: FAILED. 7 passed; 1 failed;",
                        "error: test failed, to rerun pass `--lib`", "error: test failed, to rerun pass `--test zones`"],
             keep=["test tests::split_is_even ... FAILED", "test tests::unknown_zone_panics ... FAILED",
                   "test zone_nz ... FAILED", "  left: [34, 33, 33]", " right: [33, 33, 34]",
                   {"re": r"^thread 'tests::split_is_even' \(\d+\) panicked at src/lib\.rs:65:9:$"},
                   {"re": r"^thread 'zone_nz' \(\d+\) panicked at tests/zones\.rs:15:1:$"},
                   {"re": r"^test result: FAILED\. 4 passed; 2 failed;"},
                   {"re": r"^test result: FAILED\. 7 passed; 1 failed;"},
                   "error: 2 targets failed:"],
             notes="cargo test, every target, one test thread (so the order is fixed). Thread ids, the build "
                   "time and test times differ between runs."))
    add([
        dict(name="test_cargo_pass", kind="test", cwd=fx + "/cargo", command="cargo test --test split -- --test-threads=1",
             description="Run the split tests",
             must_keep=["test result: ok. 120 passed; 0 failed;"],
             keep=[{"re": r"^test result: ok\. 120 passed; 0 failed;"}],
             notes="120 generated tests, all pass (the crate was built by the case before)."),
    ])

    # ----------------------------------------------------------------- builds
    add([
        dict(name="build_gcc_fanalyzer", kind="build", cwd=fx + "/cbuild",
             command="gcc -std=c11 -Wall -Wextra -Wpedantic -Wconversion -Wformat=2 -O2 -fanalyzer -c src/*.c",
             exit=1, description="Compile the C sources with the analyzer",
             must_keep=["src/ring.c:6:12: warning: dereference of possibly-NULL ‘r’",
                        "src/stats.c:34:12: warning: use of uninitialized value ‘m’",
                        "src/stats.c:22:16: warning: dereference of possibly-NULL ‘tmp’"],
             keep=["src/main.c:44:17: error: expected ‘;’ before ‘return’",
                   {"re": r"^src/ring\.c:6:12: warning: dereference of possibly-NULL ‘r’"},
                   {"re": r"^src/stats\.c:34:12: warning: use of uninitialized value ‘m’"},
                   {"re": r"^src/parse\.c:15:11: warning: comparison of integer expressions of different signedness"}],
             notes="gcc 12 warnings, -fanalyzer event paths (ASCII art) and one syntax error."),
        dict(name="build_make_k_fail", kind="build", cwd=fx + "/cbuild",
             command="make -k CFLAGS='-std=c11 -Wall -Wextra -Wconversion -Wshadow -O2 -g -fanalyzer'", exit=2,
             description="Build everything that builds",
             keep=["make: *** [Makefile:13: obj/main.o] Error 1", "make: Target 'all' not remade because of errors.",
                   "src/main.c:44:17: error: expected ‘;’ before ‘return’"],
             notes="make -k: four compiles with warnings, one fails; make's own error lines at the end."),
        dict(name="build_make_test_fail", kind="build", cwd=fx + "/cbuild-fixed",
             command="make test CFLAGS='-std=c11 -Wall -Wextra -Wconversion -O2 -g -fanalyzer'", exit=2,
             description="Build and run the self-test",
             keep=["FAIL p50 = 19.000, want 27.000", "1 failure(s)", "make: *** [Makefile:16: test] Error 1"],
             notes="The same project with the syntax error fixed: it builds with warnings, links, and its "
                   "self-test fails."),
        dict(name="build_tsc_pretty", kind="build", cwd=fx + "/web", command="npx tsc --noEmit -p . --pretty",
             exit=2, description="Type-check the TypeScript sources",
             must_keep=["Property 'curency' does not exist on type 'Order'. Did you mean 'currency'?", "Found 27 errors in 4 files."],
             keep=[{"re": r"^ts/orders\.ts:26:86 - error TS2551: Property 'curency' does not exist on type 'Order'\."},
                   {"re": r"^ts/inventory\.ts:9:5 - error TS2322: "},
                   {"re": r"^Found 27 errors in 4 files\.$"}],
             notes="tsc 5.9 --pretty: ANSI colours and code frames (keep lines are given as the terminal shows "
                   "them, escapes removed)."),
    ])
    add(pair("build_tsc_diagnostics", kind="build", cwd=fx + "/web",
             command="npx tsc --noEmit -p . --extendedDiagnostics", exit=2,
             description="Type-check and show compiler statistics",
             keep=["ts/orders.ts(26,86): error TS2551: Property 'curency' does not exist on type 'Order'. Did you mean 'currency'?",
                   "ts/pricing.ts(14,29): error TS18048: 'order.coupon' is possibly 'undefined'.",
                   {"re": r"^Check time:\s+[\d.]+s$"}],
             notes="tsc errors (file(line,col) form) followed by --extendedDiagnostics: memory and phase times "
                   "differ between runs."))
    add(pair("build_webpack_error", kind="build", cwd=fx + "/web", command="npx webpack --mode production --stats verbose",
             exit=1, description="Build the bundle",
             must_keep=["webpack 5.113.0 compiled with 1 error in "],
             keep=["ERROR in ./src/index.js 2:0-39",
                   "Module not found: Error: Can't resolve './format' in '%s/web/src'" % fx,
                   {"re": r"webpack 5\.113\.0 compiled with 1 error in \d+ ms \([0-9a-f]+\)$"}],
             notes="webpack 5 --stats verbose: a missing module, plus LOG sections with per-phase timings "
                   "(<t> ... ms) that differ between runs."))
    add([
        dict(name="build_webpack_warnings", kind="build", cwd=fx + "/web-fixed",
             command="npx webpack --mode production --stats verbose",
             description="Build the bundle",
             must_keep=["webpack 5.113.0 compiled with 3 warnings in ", "WARNING in entrypoint size limit"],
             keep=["WARNING in asset size limit: The following asset(s) exceed the recommended size limit (244 KiB).",
                   {"re": r"webpack 5\.113\.0 compiled with 3 warnings in \d+ ms \([0-9a-f]+\)$"}],
             notes="The same project with the module added: it builds, with three performance warnings."),
        dict(name="build_cargo_error", kind="build", cwd=fx + "/cargo-broken", setup="cargo clean -q",
             command="cargo build", exit=101,
             description="Build the crate",
             must_keep=["error[E0308]: mismatched types", "error[E0594]: cannot assign to `best.cents`",
                        "error[E0507]: cannot move out of index of `Vec<Quote>`",
                        "error: could not compile `tariff` (lib) due to "],
             keep=[{"re": r"^error\[E0308\]: mismatched types$", "n": "+"},
                   {"re": r"^error: could not compile `tariff` \(lib\) due to \d+ previous errors"},
                   {"re": r"^  --> src/broken\.rs:\d+:\d+$", "n": "+"}],
             notes="rustc errors (E0308, E0277, E0594, E0507, E0599, E0004, a lifetime error) of a half-finished "
                   "module, with code frames and help."),
    ])
    return out
