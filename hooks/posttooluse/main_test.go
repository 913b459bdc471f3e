package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/internal/testkit/golden"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/tidwall/gjson"

	"github.com/vaultctx/vaultctx/core/compress"
	"github.com/vaultctx/vaultctx/core/hookio"
)

var casesDir = testkit.SharedDir("tool-outputs")

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// binary builds vaultctx-posttooluse once per test process.
func binary(tb testing.TB) string {
	tb.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "posttooluse-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "vaultctx-posttooluse")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = err
			tb.Logf("%s", out)
		}
	})
	if buildErr != nil {
		tb.Fatalf("go build: %v", buildErr)
	}
	return binPath
}

type result struct {
	code           int
	stdout, stderr []byte
}

func run(tb testing.TB, stdin []byte, env ...string) result {
	tb.Helper()
	cmd := exec.Command(binary(tb))
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append([]string{"HOME=" + tb.TempDir(), "XDG_CACHE_HOME=" + tb.TempDir(), "PATH=" + os.Getenv("PATH")}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		tb.Fatal(err)
	}
	return result{code, out.Bytes(), errb.Bytes()}
}

func TestFailOpen(t *testing.T) {
	huge := append([]byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"stdout":"`), bytes.Repeat([]byte("x"), int(hookio.MaxPostToolUseInput))...)
	huge = append(huge, `","stderr":""}}`...)
	// The fault campaign's crash (issue 17): 6 million levels overflowed
	// gjson's recursive validator, exit 2. The long deadline lets the
	// parse, not the deadline, decide.
	const d = 6_000_000
	deep := []byte(`{"tool_name":"Bash","tool_response":` + strings.Repeat("[", d) + strings.Repeat("]", d) + `}`)
	for _, c := range []struct {
		name  string
		stdin []byte
		env   []string
	}{
		{"garbage stdin", []byte("\x00\xff not json {"), nil},
		{"empty stdin", nil, nil},
		{"truncated json", []byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"stdout":"abc`), nil},
		{"huge stdin", huge, nil},
		{"deeply nested", deep, []string{"VAULTCTX_HOOK_DEADLINE=60s"}},
		{"bad budget env", payload(t, "go_test_fail_panic_a"), []string{"VAULTCTX_POSTTOOLUSE_BUDGET=lots"}},
		{"no cache dir", payload(t, "go_test_fail_panic_a"), []string{"HOME=", "XDG_CACHE_HOME="}},
		{"unwritable cache dir", payload(t, "go_test_fail_panic_a"), []string{"XDG_CACHE_HOME=/proc/vaultctx-no-such"}},
		{"deadline", payload(t, "find_big_tree"), []string{"VAULTCTX_HOOK_DEADLINE=1ns"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.stdin, c.env...)
			if r.code != 0 {
				t.Fatalf("exit %d", r.code)
			}
			if len(r.stdout) != 0 {
				t.Fatalf("stdout not empty: %.200s", r.stdout)
			}
			if lines := bytes.Count(r.stderr, []byte("\n")); lines != 1 {
				t.Fatalf("want one stderr line, got %q", r.stderr)
			}
		})
	}
}

// TestOffAndPassthrough: a payload the hook condenses passes through, with
// nothing printed or saved, when the config turns the hook off or lists its
// command in output_passthrough.
func TestOffAndPassthrough(t *testing.T) {
	p := payload(t, "go_test_fail_panic_a") // go test -v ./...
	if r := run(t, p); r.code != 0 || len(r.stdout) == 0 {
		t.Fatalf("the case is not condensed: exit %d, %d bytes out", r.code, len(r.stdout))
	}
	for _, c := range []struct{ name, config string }{
		{"off", "[hooks]\nposttooluse = false\n"},
		{"passthrough", "[hooks]\noutput_passthrough = [\"terraform plan\", \"go test\"]\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "config.toml")
			if err := os.WriteFile(cfg, []byte(c.config), 0o600); err != nil {
				t.Fatal(err)
			}
			cache := filepath.Join(dir, "cache")
			r := run(t, p, "VAULTCTX_CONFIG="+cfg, "XDG_CACHE_HOME="+cache)
			if r.code != 0 || len(r.stdout) != 0 || len(r.stderr) != 0 {
				t.Fatalf("exit %d, stdout %.100q, stderr %q; want exit 0 and nothing", r.code, r.stdout, r.stderr)
			}
			if _, err := os.Stat(cache); !os.IsNotExist(err) {
				t.Errorf("something was saved under %s: %v", cache, err)
			}
		})
	}
}

func payload(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(casesDir, name, "posttooluse.json"))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestRealPayloads runs the binary on every shared case: small outputs and
// PostToolUseFailure payloads print nothing, large ones print valid
// protocol JSON, and nothing ever reaches stderr.
func TestRealPayloads(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(casesDir, "*", "posttooluse.json"))
	if len(dirs) == 0 {
		t.Fatal("no cases")
	}
	for _, p := range dirs {
		name := filepath.Base(filepath.Dir(p))
		t.Run(name, func(t *testing.T) {
			data, _ := os.ReadFile(p)
			r := run(t, data)
			if r.code != 0 || len(r.stderr) != 0 {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			size := len(gjson.GetBytes(data, "tool_response.stdout").String()) + len(gjson.GetBytes(data, "tool_response.stderr").String())
			if size < 4096 {
				if len(r.stdout) != 0 {
					t.Fatalf("small output not passed through: %s", r.stdout)
				}
			} else if len(r.stdout) == 0 {
				// Passed through because its extract saved too little:
				// possible only when the budget exceeds 75% of the output.
				if budget := compress.DefaultBudgetTokens * compress.CharsPerToken; budget*100 <= size*(100-compress.MinSavingPercent) {
					t.Fatalf("output of %d bytes passed through; its extract (at most %d bytes) must save %d%%", size, budget, compress.MinSavingPercent)
				}
			} else {
				u := gjson.GetBytes(r.stdout, "hookSpecificOutput.updatedToolOutput")
				if n := len(u.Get("stdout").String()) + len(u.Get("stderr").String()); n*100 > size*(100-compress.MinSavingPercent) {
					t.Fatalf("extract of %d bytes replaces %d bytes: under %d%% saved", n, size, compress.MinSavingPercent)
				}
				if gjson.GetBytes(r.stdout, "hookSpecificOutput.hookEventName").String() != "PostToolUse" || len(u.Map()) != 4 {
					t.Fatalf("bad output: %.300s", r.stdout)
				}
				if gjson.GetBytes(r.stdout, "decision").Exists() || gjson.GetBytes(r.stdout, "hookSpecificOutput.permissionDecision").Exists() {
					t.Fatal("output decides")
				}
			}
			if fail, err := os.ReadFile(filepath.Join(filepath.Dir(p), "posttoolusefailure.json")); err == nil {
				if r := run(t, fail); r.code != 0 || len(r.stdout) != 0 {
					t.Fatalf("PostToolUseFailure: exit %d stdout %q", r.code, r.stdout)
				}
			}
		})
	}
}

// TestPairsAndReruns: the two runs of a command, given the same
// tool_use_id (the save path is the only input-specific part of the
// header), print the same lines once volatile tokens are normalised (shown
// lines are verbatim, so a kept line with a timing differs), and every case
// run twice is byte-identical.
func TestPairsAndReruns(t *testing.T) {
	metas, _ := filepath.Glob(filepath.Join(casesDir, "*", "meta.json"))
	cache := t.TempDir()
	env := []string{"XDG_CACHE_HOME=" + cache}
	pairs := 0
	for _, m := range metas {
		var meta struct {
			Name   string  `json:"name"`
			PairOf *string `json:"pair_of"`
		}
		raw, _ := os.ReadFile(m)
		if err := json.Unmarshal(raw, &meta); err != nil {
			t.Fatal(err)
		}
		a := run(t, payload(t, meta.Name), env...)
		if b := run(t, payload(t, meta.Name), env...); !bytes.Equal(a.stdout, b.stdout) {
			t.Errorf("%s: two runs differ", meta.Name)
		}
		if meta.PairOf == nil || meta.Name > *meta.PairOf {
			continue
		}
		pairs++
		pa, pb := sameID(t, payload(t, meta.Name)), sameID(t, payload(t, *meta.PairOf))
		ra, rb := run(t, pa, env...), run(t, pb, env...)
		if normalizedOutput(t, ra.stdout) != normalizedOutput(t, rb.stdout) {
			t.Errorf("%s vs %s differ:\n%s\n%s", meta.Name, *meta.PairOf, ra.stdout, rb.stdout)
		}
	}
	if pairs == 0 {
		t.Fatal("no pairs")
	}
	// The output directory keeps mode 0600 files only.
	files, _ := filepath.Glob(filepath.Join(cache, "vaultctx", "outputs", "*"))
	sort.Strings(files)
	for _, f := range files {
		if info, _ := os.Stat(f); info.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v", f, info.Mode().Perm())
		}
	}
}

func sameID(tb testing.TB, p []byte) []byte {
	var m map[string]any
	if err := json.Unmarshal(p, &m); err != nil {
		tb.Fatal(err)
	}
	m["tool_use_id"] = "toolu_pair"
	b, _ := json.Marshal(m)
	return b
}

// megabytePayload is a PostToolUse payload of about 1 MB of real output
// (the shared cases concatenated until 1 MB).
func megabytePayload(tb testing.TB) []byte { return sizedPayload(tb, 1<<20) }

// sizedPayload is a PostToolUse payload of at least size bytes of real
// output (the shared cases concatenated).
func sizedPayload(tb testing.TB, size int) []byte {
	var out, errOut strings.Builder
	dirs, _ := filepath.Glob(filepath.Join(casesDir, "*", "posttooluse.json"))
	for out.Len()+errOut.Len() < size {
		for _, p := range dirs {
			if strings.Contains(p, "long_single_line") || strings.Contains(p, "binary_elf") {
				continue
			}
			data, _ := os.ReadFile(p)
			out.WriteString(gjson.GetBytes(data, "tool_response.stdout").String())
			errOut.WriteString(gjson.GetBytes(data, "tool_response.stderr").String())
		}
	}
	b, _ := json.Marshal(map[string]any{
		"session_id": "bench", "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_bench",
		"tool_input":    map[string]any{"command": "make check", "description": "Run the whole test suite"},
		"tool_response": map[string]any{"stdout": out.String(), "stderr": errOut.String(), "interrupted": false, "isImage": false},
	})
	return b
}

// BenchmarkPostToolUse1MB measures the hook end to end, from process spawn
// to exit, on about 1 MB of Bash output. It reports p50 and p95 wall time
// and the median CPU time of the hook process.
func BenchmarkPostToolUse1MB(b *testing.B) { benchmarkHook(b, megabytePayload(b)) }

// BenchmarkPostToolUse4MB is BenchmarkPostToolUse1MB on 4 MiB, about the
// most core/compress reads line by line (compress.MaxExaminedBytes).
func BenchmarkPostToolUse4MB(b *testing.B) { benchmarkHook(b, sizedPayload(b, 4<<20)) }

// BenchmarkPostToolUse12MB is BenchmarkPostToolUse1MB on 12 MiB, over
// the context hooks' 8 MiB input cap: the condensing costs what it does at
// 4 MiB, decoding and saving grow.
func BenchmarkPostToolUse12MB(b *testing.B) { benchmarkHook(b, sizedPayload(b, 12<<20)) }

func benchmarkHook(b *testing.B, p []byte) {
	bin := binary(b)
	cache := b.TempDir()
	var times, cpu []time.Duration
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		cmd := exec.Command(bin)
		cmd.Stdin = bytes.NewReader(p)
		cmd.Env = []string{"XDG_CACHE_HOME=" + cache, "HOME=" + cache, "VAULTCTX_HOOK_DEADLINE=30s"}
		var out bytes.Buffer
		cmd.Stdout = &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		cpu = append(cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		if out.Len() == 0 {
			b.Fatal("no output")
		}
	}
	// Wall time is what the user waits for; CPU time (user+system of the
	// child) is what the hook costs, and stays meaningful on a loaded machine.
	for _, d := range [][]time.Duration{times, cpu} {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	}
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(cpu[len(cpu)/2].Microseconds())/1000, "cpu-p50-ms")
	b.ReportMetric(float64(cpu[0].Microseconds())/1000, "cpu-min-ms")
}

// TestHugeOutput runs the binary on a payload over DefaultMaxInput (12 MiB
// of real output): it is condensed, and the header says how many lines
// were not examined. The deadline is raised so that a loaded machine does
// not turn this into a timing test (the benchmarks measure speed).
func TestHugeOutput(t *testing.T) {
	p := sizedPayload(t, 12<<20)
	if int64(len(p)) <= hookio.DefaultMaxInput {
		t.Fatalf("payload of %d bytes is not over the default cap", len(p))
	}
	r := run(t, p, "VAULTCTX_HOOK_DEADLINE=60s")
	if r.code != 0 || len(r.stderr) != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	stdout := gjson.GetBytes(r.stdout, "hookSpecificOutput.updatedToolOutput.stdout").String()
	if !strings.HasPrefix(stdout, "[vaultctx: Bash output condensed from ") || !strings.Contains(stdout, " lines only searched for errors: output over ") {
		t.Fatalf("no condensed header: %.300q", stdout)
	}
	if n := len(stdout) + len(gjson.GetBytes(r.stdout, "hookSpecificOutput.updatedToolOutput.stderr").String()); n > 9000 {
		t.Fatalf("extract of %d bytes", n)
	}
}

// TestGolden pins the binary's stdout for every shared payload, with the
// cache directory (a fixed path) replaced by $XDG_CACHE_HOME. Refresh with
// -update.
func TestGolden(t *testing.T) {
	// The cache path's length counts against the extract's budget, so it
	// is the same under any TMPDIR: /tmp and a name of fixed length, 32
	// bytes in all, as when the goldens were made.
	var rnd [4]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		t.Fatal(err)
	}
	cache := fmt.Sprintf("/tmp/vaultctx-pt-golden-%x", rnd)
	if len(cache) != 32 {
		t.Fatalf("cache path %q is not 32 bytes", cache)
	}
	if err := os.Mkdir(cache, 0o700); err != nil {
		t.Skipf("no fixed-length cache folder under /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(cache) })
	dirs, _ := filepath.Glob(filepath.Join(casesDir, "*", "posttooluse.json"))
	for _, p := range dirs {
		name := filepath.Base(filepath.Dir(p))
		t.Run(name, func(t *testing.T) {
			data, _ := os.ReadFile(p)
			r := run(t, data, "XDG_CACHE_HOME="+cache)
			got := bytes.ReplaceAll(r.stdout, []byte(cache), []byte("$XDG_CACHE_HOME"))
			golden.Check(t, filepath.Join("testdata", "golden", name+".json"), got)
		})
	}
}

// normalizedOutput is the hook's updatedToolOutput, stdout then stderr,
// each line normalised (compress.Normalize).
func normalizedOutput(t *testing.T, out []byte) string {
	t.Helper()
	if len(out) == 0 {
		return ""
	}
	var v struct {
		HookSpecificOutput struct {
			UpdatedToolOutput struct{ Stdout, Stderr string } `json:"updatedToolOutput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("hook output %q: %v", out, err)
	}
	o := v.HookSpecificOutput.UpdatedToolOutput
	lines := strings.Split(o.Stdout+"\n----- stderr -----\n"+o.Stderr, "\n")
	for i, l := range lines {
		lines[i] = compress.Normalize(l)
	}
	return strings.Join(lines, "\n")
}
