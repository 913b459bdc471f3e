package compress

import (
	"fmt"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"go test duration", "--- PASS: TestAdd (0.00s)", "--- PASS: TestAdd (<dur>)"},
		{"package time", "ok  \tstrings\t0.466s", "ok  \tstrings\t<dur>"},
		{"ms", "npm http fetch GET 200 https://registry.npmjs.org/ms 416ms (cache miss)", "npm http fetch GET 200 https://registry.npmjs.org/ms <dur> (cache miss)"},
		{"compound", "took 1m30.5s total", "took <dur> total"},
		{"micro", "op 1.2µs", "op <dur>"},
		{"spelled", "Time:        1.234 s, 12 ms", "Time: <dur>, <dur>"},
		{"not a duration", "12.0M x86_64 int64s 3d v1.2.3 test(s) 100m2x", "12.0M x86_64 int64s 3d v1.2.3 test(s) 100m2x"},
		{"rfc3339", "at 2026-11-30T12:25:50.217941294Z", "at <time>"},
		{"asctime", "2026-11-30 12:25:24,622 INFO    [pid 30670] worker", "<time> INFO    [pid <pid>] worker"},
		{"clock not file:line", "parser.c:55:29: error: x at 12:25:50", "parser.c:55:29: error: x at <time>"},
		{"hex", "stack at 0xfac18f14030 +0x1d", "stack at 0x<addr> +0x1d"},
		{"goroutine", "goroutine 65 [running]: created by x in goroutine 1", "goroutine <n> [running]: created by x in goroutine <n>"},
		{"go tempdir", "wrote /home/dev/tmp/TestTitleWithTempDir2531972349/001/out.txt", "wrote /home/dev/tmp/<tmp>/001/out.txt"},
		{"python mkdtemp", "in /tmp/worker-utjbqbzy/job-0.dat", "in /tmp/<tmp>/job-0.dat"},
		{"plain tmp file kept", "saved /tmp/blob.out", "saved /tmp/blob.out"},
		{"ephemeral port", "listening on 127.0.0.1:41234 and localhost:8080", "listening on 127.0.0.1:<port> and localhost:<port>"},
		{"client port in a widened range", "remote=127.0.0.1:30131 served", "remote=127.0.0.1:<port> served"},
		{"privileged port", "proxy to localhost:443 and 0.0.0.0:80", "proxy to localhost:443 and 0.0.0.0:80"},
		{"rate", "Fetched 241 kB in 2s (114 kB/s)", "Fetched 241 kB in <dur> (<rate>)"},
		{"curl meter", "100 12.0M  100 12.0M    0     0  2573k      0  0:00:04  0:00:04 --:--:--  550k", "100 12.0M  100 12.0M    0     0 <progress>"},
		{"wget dots", "  6144K .......... .......... .......... .......... .......... 50% 1.21M 5s", "  6144K .......... .......... .......... .......... .......... 50% <progress>"},
		{"wget last dots", " 12288K ....                                                  100% 2.34M=6.1s", " 12288K ....                                                  100% <progress>"},
		{"git clone rate", "Receiving objects: 100% (1234/1234), 5.67 MiB | 3.21 MiB/s, done.", "Receiving objects: 100% (1234/1234), 5.67 MiB | <rate>, done."},
		{"pip bar", "   ━━━━━━━━━━━━━━━━━━━━ 1.2/1.2 MB 3.4 MB/s eta 0:00:00", "   ━━━━━━━━━━━━━━━━━━━━ 1.2/1.2 MB <rate> eta <time>"},
		{"uuid", "request 3f1c2a7e-1b2d-4c55-9a10-0c8d2e6b7f01 done", "request <uuid> done"},
		{"rust thread", "thread 'tests::x' (13258) panicked at src/lib.rs:2:53:", "thread 'tests::x' (<n>) panicked at src/lib.rs:2:53:"},
		{"tap duration", "  duration_ms: 38.441229", "  duration_ms: <dur>"},
		{"syslog pid", "sshd[1234]: accepted", "sshd[<pid>]: accepted"},
		{"nothing volatile", "calc_test.go:36: Div(-7, 2) = -3, want -4", "calc_test.go:36: Div(-7, 2) = -3, want -4"},
		// Temp paths.
		{"mktemp default", "cleaning up /tmp/tmp.aB3dE6fGh1/out.log", "cleaning up /tmp/<tmp>/out.log"},
		{"mktemp template", "extracting to /tmp/build.Qx7Lp2", "extracting to /tmp/<tmp>"},
		{"python tempfile", "open /tmp/tmp8d6af57: ok", "open /tmp/<tmp>: ok"},
		{"python tempfile suffix", "state /tmp/tmpartisi2_.json", "state /tmp/<tmp>"},
		{"pytest run dir", "tmp_path = PosixPath('/tmp/pytest-of-dev/pytest-12/test_a0')", "tmp_path = PosixPath('/tmp/pytest-of-dev/<tmp>/test_a0')"},
		{"macos tempfile", "wrote /var/folders/xx/yyyy/T/tmpk2j3/a.txt", "wrote /var/folders/xx/yyyy/T/<tmp>/a.txt"},
		{"plain tmp names kept", "/tmp/tmpfiles /tmp/tmp_output /tmp/report.backup /tmp/pytest-of-dev/pytest-current", "/tmp/tmpfiles /tmp/tmp_output /tmp/report.backup /tmp/pytest-of-dev/pytest-current"},
		// Dates.
		{"rfc1123", "Date: Mon, 30 Nov 2026 12:34:56 GMT", "Date: <time>"},
		{"date -R", "Mon, 30 Nov 2026 12:34:56 +0000 deploy", "<time> deploy"},
		{"common log format", `127.0.0.1 - - [30/Nov/2026:12:34:56 +0000] "GET / HTTP/1.1" 200`, `127.0.0.1 - - [<time>] "GET / HTTP/1.1" 200`},
		{"date(1)", "started Mon Nov 30 12:34:56 UTC 2026", "started <time>"},
		{"syslog keeps level", "Nov  3 12:34:56 INFO ready", "<time> INFO ready"},
		{"us style", "Last run 4/4/2026 1:02:03 PM by ci", "Last run <time> by ci"},
		{"us style no seconds", "11/30/2026, 13:02 build", "<time> build"},
		{"clock am pm", "at 11:59:59 AM and 1:02:03pm", "at <time> and <time>"},
		{"git commit date kept", "Date:   Mon Nov 30 12:34:56 2026 +0000", "Date:   Mon Nov 30 12:34:56 2026 +0000"},
		{"plain dates kept", "version 4/4 of 2026, Nov 30", "version 4/4 of 2026, Nov 30"},
		// Epoch values.
		{"logfmt epoch", "ts=1732981234 level=info", "ts=<time> level=info"},
		{"json epoch ms", `{"time": 1732981234567, "n": 1732981234567}`, `{"time": <time>, "n": 1732981234567}`},
		{"epoch keys", `createdAt: 1732981234 "@timestamp":"1732981234.125" iat=1732981234`, `createdAt: <time> "@timestamp":"<time>" iat=<time>`},
		{"epoch range", "ts=0000000001 ts=4732981234 ts=17329812345 bytes=1732981234", "ts=0000000001 ts=4732981234 ts=17329812345 bytes=1732981234"},
		// Process ids and durations.
		{"process", "Killed process 31188 (python3); Process ID: 7712", "Killed process <pid> (python3); Process ID: <pid>"},
		{"process count kept", "process 1 of 4", "process 1 of 4"},
		{"jest estimate", "Time:        4 s, estimated 5 s", "Time: <dur>"},
		{"integer seconds", "done, estimated 4 s", "done, estimated <dur>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Normalize(c.in)
			if got != c.want {
				t.Fatalf("Normalize(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
			if again := Normalize(got); again != got {
				t.Fatalf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

// allCaseLines returns every cleaned line of every case.
func allCaseLines(t testing.TB) []string {
	var out []string
	for _, c := range loadCases(t) {
		for _, s := range []string{c.Req.Stdout, c.Req.Stderr} {
			for l := range strings.SplitSeq(s, "\n") {
				out = append(out, cleanLine(l))
			}
		}
	}
	return out
}

// TestDurationsMatchReference checks the hand-written duration scanner
// against its reference regexp on every real line.
func TestDurationsMatchReference(t *testing.T) {
	for _, l := range allCaseLines(t) {
		if got, want := normDurations(l), durationRe.ReplaceAllString(l, "${1}"+phDur); got != want {
			t.Errorf("normDurations(%q)\n got %q\nwant %q", l, got, want)
		}
	}
}

func TestNormalizeIdempotentOnCases(t *testing.T) {
	for _, l := range allCaseLines(t) {
		n := Normalize(l)
		if Normalize(n) != n {
			t.Errorf("not idempotent on %q: %q", l, n)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"(0.53s) 813ms 1m30s", "2026-11-30T12:25:50.21Z pid 7 0xdeadbeef0", "/tmp/go-build123456/b001", "5µs 1.5 s 12:00:01", "thread 'a' (1) x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line := cleanLine(s)
		if got, want := normDurations(line), durationRe.ReplaceAllString(line, "${1}"+phDur); got != want {
			t.Fatalf("normDurations(%q) = %q, reference %q", line, got, want)
		}
		n := Normalize(line)
		if Normalize(n) != n {
			t.Fatalf("Normalize not idempotent on %q: %q -> %q", line, n, Normalize(n))
		}
	})
}

func ExampleNormalize() {
	fmt.Println(Normalize("--- FAIL: TestTitle (0.53s) wrote /tmp/TestTitle2531972349/001/out.txt (pid 31188)"))
	fmt.Println(Normalize("2026-11-30 12:25:24,622 INFO job 7 done in 0.018s (obj at 0x7fb3e695d8f0)"))
	// Output:
	// --- FAIL: TestTitle (<dur>) wrote /tmp/<tmp>/001/out.txt (pid <pid>)
	// <time> INFO job 7 done in <dur> (obj at 0x<addr>)
}

func TestNormalizeElapsedRemaining(t *testing.T) {
	for in, want := range map[string]string{
		" 45%|████▌     | 45/100 [00:21<00:26,  2.10it/s]":  " 45%|████▌     | 45/100 [<dur><<dur>, <rate>]",
		"100%|██████████| 100/100 [00:47<00:00,  2.10it/s]": "100%|██████████| 100/100 [<dur><<dur>, <rate>]",
		"  0%|          | 0/100 [00:00<?, ?it/s]":           "  0%|          | 0/100 [<dur><<dur>, <rate>]",
		"x [1:02:03<00:01, 1.52s/it]":                       "x [<dur><<dur>, <rate>]",
		"dl [00:03<00:00, 3.4MB/s]":                         "dl [<dur><<dur>, <rate>]",
		"a <b> [12:30]":                                     "a <b> [12:30]",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
		if got := Normalize(Normalize(in)); got != Normalize(in) {
			t.Errorf("not idempotent on %q: %q", in, got)
		}
	}
}

func TestNormalizeIDsAndSizes(t *testing.T) {
	for in, want := range map[string]string{
		"INFO http request_id=8203ef42 method=GET":                                  "INFO http request_id=<id> method=GET",
		`{"traceId": "4bf92f3577b34da6a3ce929d0e0e4736", "x": 1}`:                   `{"traceId": "<id>", "x": 1}`,
		"job_id=29870000 failed":                                                    "job_id=29870000 failed",
		"Memory used:               187752K":                                        "Memory used: <mem>",
		"max RSS 2.1 GB":                                                            "max RSS <mem>",
		"npm verbose logfile /root/.npm/_logs/2026-12-02T02_00_53_625Z-debug-0.log": "npm verbose logfile /root/.npm/_logs/<time>-debug-0.log",
		"tokenize: 100%|██████████| 24/24 [00:00<00:00, 32.48shard/s]":              "tokenize: 100%|██████████| 24/24 [<dur><<dur>, <rate>]",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
		if got := Normalize(Normalize(in)); got != Normalize(in) {
			t.Errorf("not idempotent on %q: %q", in, got)
		}
	}
}

func TestNormalizePaddingAndRequestIDs(t *testing.T) {
	for in, want := range map[string]string{
		"Program time:                0.87s":                  "Program time: <dur>",
		"  GET /x -> 200 in 3ms (59 bytes, req 5f051908-07f)": "  GET /x -> 200 in <dur> (59 bytes, req <id>)",
		"req deadbeef": "req deadbeef",
		"request_id=dfedaada method=GET status=200 dur=25ms": "request_id=<id> method=GET status=200 dur=<dur>",
		"trace: facadeab (3 spans)":                          "trace: <id> (3 spans)",
		"see req facade 2":                                   "see req facade 2",
		"job_id=12345678":                                    "job_id=12345678",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}
