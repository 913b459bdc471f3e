package claudetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// EnvCapture names the fixture folder (core/compress/testdata/fidelity)
// that TestPersistedOutputShape writes its real payloads into, as
// persisted_<name>/ folders; unset, it only checks the shape.
const EnvCapture = "VAULTCTX_CAPTURE_PERSISTED"

// persistedCase is one command whose output is over the 30,000 bytes the
// CLI hands a hook, with the rule that picks its must-keep lines: late
// errors and the final summary.
type persistedCase struct {
	name, kind, notes string
	command           string
	files             map[string]string // written into the project folder first
	keep              *regexp.Regexp    // lines of the full output that must survive
}

func persistedCases() []persistedCase {
	goTest := map[string]string{"go.mod": "module example.com/proj\n\ngo 1.26\n"}
	for _, p := range []struct {
		pkg, test string
		n         int
	}{{"alpha", "TestIngest", 480}, {"beta", "TestReplicate", 430}} {
		goTest[p.pkg+"/"+p.pkg+".go"] = "package " + p.pkg + "\n"
		goTest[p.pkg+"/"+p.pkg+"_test.go"] = fmt.Sprintf(`package %s

import (
	"fmt"
	"testing"
)

func %s(t *testing.T) {
	for i := 1; i <= %d; i++ {
		t.Run(fmt.Sprintf("batch_%%04d", i), func(t *testing.T) {
			t.Logf("batch %%d: 512 rows into shard %%d, checksum ok", i, i%%7)
		})
	}
}
`, p.pkg, p.test, p.n)
	}
	goTest["gamma/gamma.go"] = "package gamma\n\n// Sum adds the rows of a batch.\nfunc Sum(rows []int) int {\n\ts := 0\n\tfor _, r := range rows[1:] {\n\t\ts += r\n\t}\n\treturn s\n}\n"
	goTest["gamma/gamma_test.go"] = `package gamma

import (
	"fmt"
	"testing"
)

func TestLateChecks(t *testing.T) {
	for i := 1; i <= 120; i++ {
		t.Run(fmt.Sprintf("check_%04d", i), func(t *testing.T) {
			rows := []int{i, 2, 3}
			want := i + 5
			if i%59 != 0 {
				rows[0] = 0
				want = 5
			}
			if got := Sum(rows); got != want {
				t.Errorf("Sum(%v) = %d, want %d: checksum mismatch", rows, got, want)
			}
		})
	}
}
`
	jobs := `#!/bin/sh
# Processes 3,000 queued jobs: one log line each on stdout, problems on
# stderr, a summary at the end.
start=$(date -u +%s)
awk -v start="$start" 'BEGIN {
	for (i = 1; i <= 3000; i++) {
		t = start + int(i / 40)
		printf "%s.%03dZ INFO  worker-%d job=%04d status=done rows=%d took=%dms\n", strftime("%Y-%m-%dT%H:%M:%S", t, 1), (i * 37) % 1000, i % 4, i, 100 + (i * 13) % 400, 20 + (i * 7) % 19
		if (i == 2987) { print "WARN  worker-3 job=2987 retrying after timeout (attempt 2/3)" > "/dev/stderr"; fflush("/dev/stderr") }
		fflush()
	}
}'
echo "ERROR worker-3 job=2987 failed: connection reset by peer (attempt 3/3)" >&2
echo "jobs: 3000 total, 2999 done, 1 failed"
echo "exit status 1 (failed jobs are retried by the next run)"
`
	utf := map[string]string{}
	for i := 1; i <= 800; i++ {
		utf[fmt.Sprintf("報告書/第%03d号_売上報告_東京支店.md", i)] = "x\n"
	}
	return []persistedCase{
		{
			name: "go_test_tee", kind: "test",
			command: "go test -count=1 -v ./... 2>&1 | tee go-test.log",
			files:   goTest,
			keep:    regexp.MustCompile(`^\s*--- FAIL|checksum mismatch|^FAIL|^ok\s`),
			notes: "go test -v of a generated module of three packages, piped through tee so the command exits 0 (PostToolUse, not PostToolUseFailure) although the last package fails. " +
				"About 140 KB: the hook's 30,000-byte head holds none of the failures; they, the FAIL lines and the per-package summary are at the end of the full output.",
		},
		{
			name: "jobs_log", kind: "log",
			command: "sh jobs.sh",
			files:   map[string]string{"jobs.sh": jobs},
			keep:    regexp.MustCompile(`WARN|ERROR|^jobs: |^exit status`),
			notes: "A 3,000-line job log (awk) with a warning and an error written to stderr near the end, then a summary. " +
				"Claude Code merges stderr into stdout in the order written: tool_response.stderr is empty and the persisted file holds both streams.",
		},
		{
			name: "utf8_listing", kind: "listing",
			command: `find 報告書 -type f | sort; echo "$(find 報告書 -type f | wc -l) files"`,
			files:   utf,
			keep:    regexp.MustCompile(`第800号|^800 files$`),
			notes: "A listing of 800 files with Japanese names (3 bytes a character). Claude Code cuts tool_response.stdout at 30,000 bytes, " +
				"inside a character: the head ends in U+FFFD where the cut split one. The full file is intact.",
		},
	}
}

// TestPersistedOutputShape runs commands whose output is over 30,000 bytes
// in the real CLI, with a hook that records the PostToolUse payload and no
// vaultctx hook, and checks what Claude Code 2.1.332 does with them (see
// docs/claude-code.md): it saves the whole output, stdout and stderr
// merged, to CLAUDE_CONFIG_DIR/projects/<project>/<session>/tool-results/
// <id>.txt; it gives the hook the first 30,000 bytes of it as
// tool_response.stdout (made valid UTF-8, trailing newlines trimmed), an
// empty stderr, and the file's path and size in persistedOutputPath and
// persistedOutputSize; the model gets a <persisted-output> block with the
// path and a 2 KB preview. With EnvCapture set it also writes each case
// as a fixture folder.
func TestPersistedOutputShape(t *testing.T) {
	cli := Claude(t)
	cases := persistedCases()
	var script []Turn
	for _, c := range cases {
		script = append(script, Bash("toolu_"+c.name, c.command))
	}
	mock := NewMock(t, append(script, Say("Done."))...)
	s := NewSession(t, cli, mock)
	s.Env = GoEnv(t)
	rec := s.RecordHooks(t, "PostToolUse")
	for _, c := range cases {
		for name, body := range c.files {
			p := filepath.Join(s.Project, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := s.Run(t, "run the three commands")
	if r.Code != 0 {
		t.Fatalf("claude exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	t.Logf("claude -p took %v", r.Elapsed)
	payloads := map[string][]byte{}
	for _, p := range Recorded(t, rec, "PostToolUse") {
		payloads[gjson.GetBytes(p, "tool_use_id").String()] = p
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			payload, ok := payloads["toolu_"+c.name]
			if !ok {
				t.Fatalf("no PostToolUse payload recorded (got %d)", len(payloads))
			}
			resp := gjson.GetBytes(payload, "tool_response")
			path, size := resp.Get("persistedOutputPath").String(), resp.Get("persistedOutputSize").Int()
			full, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("persistedOutputPath %q: %v\npayload: %.500s", path, err, payload)
			}
			rel, _ := filepath.Rel(filepath.Join(s.ConfigDir, "projects"), path)
			if !regexp.MustCompile(`^[^/]+/[0-9a-f-]{36}/tool-results/[^/]+\.txt$`).MatchString(rel) {
				t.Errorf("persisted file at %s, not CLAUDE_CONFIG_DIR/projects/<project>/<session>/tool-results/<id>.txt", path)
			}
			if int64(len(full)) != size || size <= 30000 {
				t.Errorf("persistedOutputSize %d, file %d bytes", size, len(full))
			}
			wantHead := strings.TrimRight(strings.ToValidUTF8(string(full[:30000]), "\uFFFD"), "\n")
			if got := resp.Get("stdout").String(); got != wantHead {
				t.Errorf("stdout is not the first 30,000 bytes of the file: %d bytes ending %q, want %d ending %q",
					len(got), tail(got, 40), len(wantHead), tail(wantHead, 40))
			}
			if resp.Get("stderr").String() != "" {
				t.Errorf("stderr %q, want empty (merged into the file)", resp.Get("stderr").String())
			}
			keep := mustKeep(full, c.keep)
			if len(keep) == 0 {
				t.Fatal("no must-keep line in the output")
			}
			for _, k := range keep {
				if strings.Contains(resp.Get("stdout").String(), k) {
					t.Errorf("must-keep line %q is in the 30,000-byte head: the case does not test the tail", k)
				}
			}
			got, _ := mock.ToolResult("toolu_" + c.name)
			if !strings.HasPrefix(got, "<persisted-output>\nOutput too large (") ||
				!strings.Contains(got, "Full output saved to: "+path+"\n\nPreview (first 2KB):\n") {
				t.Errorf("the model received %.400q, want the <persisted-output> block", got)
			}
			if dir := os.Getenv(EnvCapture); dir != "" {
				writeCase(t, dir, c, payload, path, full, keep)
			}
		})
	}
}

// mustKeep returns the lines of full that re matches, in order.
func mustKeep(full []byte, re *regexp.Regexp) []string {
	var out []string
	for _, ln := range strings.Split(string(full), "\n") {
		if re.MatchString(ln) {
			out = append(out, ln)
		}
	}
	return out
}

func tail(s string, n int) string { return s[max(len(s)-n, 0):] }

// writeCase writes one fixture folder: posttooluse.json as recorded, with
// persistedOutputPath rewritten to "full.txt" (relative to the folder),
// full.txt (the persisted file, byte for byte) and meta.json.
func writeCase(t *testing.T, dir string, c persistedCase, payload []byte, path string, full []byte, keep []string) {
	t.Helper()
	out := filepath.Join(dir, "persisted_"+c.name)
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(path)
	if bytes.Count(payload, quoted) != 1 {
		t.Fatalf("the path occurs %d times in the payload", bytes.Count(payload, quoted))
	}
	payload = bytes.Replace(payload, quoted, []byte(`"full.txt"`), 1)
	lines := bytes.Count(full, []byte("\n"))
	meta := map[string]any{
		"name":                "persisted_" + c.name,
		"command":             c.command,
		"kind":                c.kind,
		"claude_code_version": Version,
		"persisted_file":      "full.txt",
		"persisted_bytes":     len(full),
		"lines":               lines,
		"head_bytes":          len(gjson.GetBytes(payload, "tool_response.stdout").String()),
		"must_keep":           keep,
		"must_keep_lines":     keep,
		"notes": c.notes + " Captured by internal/claudetest TestPersistedOutputShape (" + EnvCapture + "): the real CLI ran the command; " +
			"tool_response.persistedOutputPath was rewritten from Claude Code's path to full.txt in this folder; every other byte of posttooluse.json is as the hook received it.",
	}
	mb, err := json.MarshalIndent(meta, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"posttooluse.json": payload, "full.txt": full, "meta.json": append(mb, '\n')} {
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote %s (%d bytes, %d lines, %d must-keep lines)", out, len(full), lines, len(keep))
}
