package posttool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/vaultctx/vaultctx/core/hookio"
	"github.com/vaultctx/vaultctx/core/scrub"
)

// fidelityDir holds the real payloads of outputs Claude Code persisted
// (persisted_*), captured by internal/claudetest.
const fidelityDir = "../compress/testdata/fidelity"

// claudeHead is what Claude Code 2.1.332 hands the hook of a persisted
// output as tool_response.stdout: the first 30,000 bytes, made valid
// UTF-8, trailing newlines trimmed (docs/claude-code.md).
func claudeHead(full []byte) string {
	return strings.TrimRight(strings.ToValidUTF8(string(full[:min(len(full), 30000)]), "\uFFFD"), "\n")
}

// persistedInput is the PostToolUse payload Claude Code sends for an
// output it saved at path, reporting size bytes (see claudeHead).
func persistedInput(t testing.TB, command, path string, full []byte, size int64) hookio.Input {
	t.Helper()
	payload, err := json.Marshal(map[string]any{
		"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_persisted",
		"tool_input": map[string]any{"command": command, "description": "Run it"},
		"tool_response": map[string]any{"stdout": claudeHead(full), "stderr": "", "interrupted": false, "isImage": false,
			"noOutputExpected": false, "persistedOutputPath": path, "persistedOutputSize": size},
	})
	if err != nil {
		t.Fatal(err)
	}
	in, err := hookio.ReadInput(bytes.NewReader(payload), 0)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// extractOf returns the updatedToolOutput stdout of a Hook answer.
func extractOf(t testing.TB, out []byte) string {
	t.Helper()
	r := gjson.GetBytes(out, "hookSpecificOutput.updatedToolOutput.stdout")
	if !r.Exists() {
		t.Fatalf("not a Bash replacement: %s", out)
	}
	return r.String()
}

// lineCount is the number of lines of s as the extract's header counts
// them: a last line without a newline counts too.
func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// checkSaved fails the test unless the saved full output in dir is full,
// scrubbed.
func checkSaved(t *testing.T, dir, full string) {
	t.Helper()
	saved, err := os.ReadFile(filepath.Join(dir, "toolu_persisted.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := scrub.Default().Scrub(full); string(saved) != want {
		t.Errorf("saved output is %d bytes, want the complete file scrubbed (%d bytes)", len(saved), len(want))
	}
}

// TestHookPersistedFixtures runs the hook on the real payloads of outputs
// over 30,000 bytes: the extract is built from the complete file (its
// header counts every line, and the file's last line, the summary that the
// hook's 30,000-byte head never holds, is shown), and the saved full
// output is the complete file, scrubbed. Lines are compared as
// compress.Normalize shows them, as long as compress displays kept lines
// normalised.
func TestHookPersistedFixtures(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(fidelityDir, "persisted_*"))
	if len(dirs) == 0 {
		t.Fatal("no persisted_* fixtures")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var meta struct {
				PersistedFile string   `json:"persisted_file"`
				MustKeepLines []string `json:"must_keep_lines"`
			}
			b, err := os.ReadFile(filepath.Join(dir, "meta.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &meta); err != nil {
				t.Fatal(err)
			}
			payload, err := os.ReadFile(filepath.Join(dir, "posttooluse.json"))
			if err != nil {
				t.Fatal(err)
			}
			abs, err := filepath.Abs(filepath.Join(dir, meta.PersistedFile))
			if err != nil {
				t.Fatal(err)
			}
			quoted, _ := json.Marshal(abs)
			payload = bytes.Replace(payload, []byte(`"persistedOutputPath":"`+meta.PersistedFile+`"`), append([]byte(`"persistedOutputPath":`), quoted...), 1)
			payload = bytes.Replace(payload, []byte(`"tool_use_id":"`+gjson.GetBytes(payload, "tool_use_id").String()+`"`), []byte(`"tool_use_id":"toolu_persisted"`), 1)
			full, err := os.ReadFile(abs)
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			got, err := Hook(context.Background(), readPayload(t, payload), Options{OutputDir: out})
			if err != nil || got == nil {
				t.Fatalf("Hook = %s, %v; want an extract of the complete file", got, err)
			}
			ex := extractOf(t, got)
			if header := strings.SplitN(ex, "\n", 2)[0]; !strings.Contains(header, " "+strconv.Itoa(lineCount(string(full)))+" lines") {
				t.Errorf("header %q does not count the complete file's %d lines", header, lineCount(string(full)))
			}
			shown := map[string]bool{}
			for _, ln := range strings.Split(ex, "\n") {
				shown[ln] = true
			}
			lines := strings.Split(strings.TrimRight(string(full), "\n"), "\n")
			if last := lines[len(lines)-1]; !shown[last] {
				t.Errorf("the complete file's last line %q is not in the extract: its tail was not condensed:\n%s", last, ex)
			}
			// Lines past the 30,000-byte head that the extract must show,
			// verbatim (core/compress's fidelity test reads them too).
			for _, want := range meta.MustKeepLines {
				if !shown[want] {
					t.Errorf("must-keep line %q is not in the extract:\n%s", want, ex)
				}
			}
			checkSaved(t, out, string(full))
		})
	}
}

// TestHookPersistedBadFiles: a persisted path the hook cannot read whole
// and safely passes the output through untouched (nil, no error, nothing
// saved), promptly, instead of condensing a part of it.
func TestHookPersistedBadFiles(t *testing.T) {
	dir := t.TempDir()
	full := bytes.Repeat([]byte("2026-12-02T01:46:05.963Z INFO worker-3 job=2999 status=done rows=287 took=37ms\n"), 800)
	regular := filepath.Join(dir, "regular.txt")
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("regular.txt", full)
	link := func(name, target string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Skipf("symlink: %v", err)
		}
		return p
	}
	big := filepath.Join(dir, "big.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxPersistedBytes + 1); err != nil { // sparse: no 64 MiB written
		t.Fatal(err)
	}
	f.Close()
	other := append([]byte("a different output\n"), full...)
	cases := []struct {
		name string
		path string
		size int64
		want error
	}{
		{"missing", filepath.Join(dir, "missing.txt"), int64(len(full)), os.ErrNotExist},
		{"directory", dir, int64(len(full)), ErrPersistedNotRegular},
		{"symlink to /dev/zero", link("zero.txt", "/dev/zero"), int64(len(full)), ErrPersistedNotRegular},
		{"symlink to the regular file", link("link.txt", regular), int64(len(full)), ErrPersistedNotRegular},
		{"grown since Claude Code measured it", regular, int64(len(full)) - 100, ErrPersistedChanged},
		{"another output", write("other.txt", other), int64(len(other)), ErrPersistedMismatch},
		{"over the cap", big, MaxPersistedBytes + 1, ErrPersistedTooLarge},
	}
	if os.Geteuid() != 0 { // root reads a mode-000 file
		p := write("unreadable.txt", full)
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			name string
			path string
			size int64
			want error
		}{"unreadable", p, int64(len(full)), os.ErrPermission})
	} else {
		t.Log("running as root: the unreadable (mode 000) case cannot be made and is skipped")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ReadPersisted(context.Background(), c.path, c.size, claudeHead(full)); !errors.Is(err, c.want) {
				t.Errorf("ReadPersisted: %v, want %v", err, c.want)
			}
			out := t.TempDir()
			got, err := Hook(context.Background(), persistedInput(t, "sh jobs.sh", c.path, full, c.size), Options{OutputDir: out})
			if got != nil || err != nil {
				t.Errorf("Hook = %.200s, %v; want a pass-through", got, err)
			}
			if entries, _ := os.ReadDir(out); len(entries) != 0 {
				t.Errorf("a pass-through saved %d files", len(entries))
			}
		})
	}
	// The regular file itself is read whole.
	if got, err := ReadPersisted(context.Background(), regular, int64(len(full)), claudeHead(full)); err != nil || got != string(full) {
		t.Errorf("regular file: %d bytes, %v", len(got), err)
	}
}

// TestHookPersistedGrowing: a file that grows while the hook runs gives
// either a pass-through or the extract of one consistent content (the
// size Claude Code reported), never an extract of a half-written file.
func TestHookPersistedGrowing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "growing.txt")
	full := bytes.Repeat([]byte("line of a command that is still writing its output, number 0123456789\n"), 3000)
	if err := os.WriteFile(path, full, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		for ctx.Err() == nil {
			if _, err := f.WriteString("late line\n"); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(100 * time.Microsecond)
		}
	}()
	defer func() { cancel(); wg.Wait() }()
	for i := range 20 {
		out := t.TempDir()
		got, err := Hook(context.Background(), persistedInput(t, "make", path, full, int64(len(full))), Options{OutputDir: out})
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if got != nil {
			checkSaved(t, out, string(full))
		}
	}
}

// TestReadExactly: a reader holding more or fewer bytes than announced is
// ErrPersistedChanged, a done context is its error.
func TestReadExactly(t *testing.T) {
	data := strings.Repeat("x", 3*persistedChunk+5)
	n := int64(len(data))
	if got, err := readExactly(context.Background(), strings.NewReader(data), n); err != nil || string(got) != data {
		t.Errorf("exact: %d bytes, %v", len(got), err)
	}
	for _, c := range []struct {
		name string
		r    io.Reader
	}{
		{"one byte more", strings.NewReader(data + "y")},
		{"one byte less", strings.NewReader(data[1:])},
	} {
		if _, err := readExactly(context.Background(), c.r, n); !errors.Is(err, ErrPersistedChanged) {
			t.Errorf("%s: %v, want ErrPersistedChanged", c.name, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := readExactly(ctx, strings.NewReader(data), n); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestCheckedHead(t *testing.T) {
	long := strings.Repeat("é", headCheckBytes) // 2 bytes a character
	for _, c := range []struct{ name, head, want string }{
		{"short", "abc", "abc"},
		{"cut on a character boundary", long, long[:headCheckBytes]},
		{"cut inside a character", "a" + long, ("a" + long)[:headCheckBytes-1]},
		{"up to a replacement character", "ab\uFFFDcd", "ab"},
		{"empty", "", ""},
	} {
		if got := checkedHead(c.head); got != c.want {
			t.Errorf("%s: %d bytes, want %d", c.name, len(got), len(c.want))
		}
	}
}

// sixteenMB is a 16 MiB output of real captured outputs (the 1 MB
// benchmark's, repeated) with a late error and a summary at its end.
func sixteenMB(tb testing.TB) []byte {
	tb.Helper()
	req := megabyteRequest(tb)
	var b bytes.Buffer
	for b.Len() < 16<<20 {
		b.WriteString(req.Stdout)
		b.WriteString(req.Stderr)
	}
	b.WriteString("FATAL late failure: disk quota exceeded while writing /var/cache/build/out.bin\n")
	b.WriteString("summary: 41 steps, 40 ok, 1 failed\n")
	return b.Bytes()
}

// TestHookPersisted16MB: a 16 MiB persisted output is condensed from the
// complete file, its late error and summary kept. (Its time is measured by
// BenchmarkHookPersisted, not here.)
func TestHookPersisted16MB(t *testing.T) {
	full := sixteenMB(t)
	path := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(path, full, 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	got, err := Hook(context.Background(), persistedInput(t, "make check", path, full, int64(len(full))), Options{OutputDir: out})
	if err != nil || got == nil {
		t.Fatalf("Hook = %.200s, %v", got, err)
	}
	ex := extractOf(t, got)
	for _, want := range []string{" " + strconv.Itoa(lineCount(string(full))) + " lines", "FATAL late failure", "summary: 41 steps"} {
		if !strings.Contains(ex, want) {
			t.Errorf("extract lacks %q:\n%s", want, ex)
		}
	}
	checkSaved(t, out, string(full))
}

// BenchmarkHookPersisted runs what the hook process does after start-up
// for persisted outputs of 16 and 64 MiB (MaxPersistedBytes): read the
// complete file, condense it, scrub and save it, encode the answer.
func BenchmarkHookPersisted(b *testing.B) {
	one := sixteenMB(b)
	for _, mib := range []int{16, 64} {
		b.Run(strconv.Itoa(mib)+"MiB", func(b *testing.B) {
			full := bytes.Repeat(one, mib/16)[:min(mib<<20, MaxPersistedBytes)]
			path := filepath.Join(b.TempDir(), "big.txt")
			if err := os.WriteFile(path, full, 0o644); err != nil {
				b.Fatal(err)
			}
			in := persistedInput(b, "make check", path, full, int64(len(full)))
			opts := Options{OutputDir: b.TempDir()}
			b.SetBytes(int64(len(full)))
			for b.Loop() {
				if out, err := Hook(context.Background(), in, opts); err != nil || out == nil {
					b.Fatal(err)
				}
			}
		})
	}
}
