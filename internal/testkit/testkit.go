package testkit

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	rootOnce sync.Once
	root     string
	rootErr  string
)

// Root returns the absolute path of the repository root: the nearest
// folder holding go.mod above this source file. It fails the test when
// there is none (a binary built with -trimpath, or a moved source file).
func Root(tb testing.TB) string {
	tb.Helper()
	rootOnce.Do(findRoot)
	if rootErr != "" {
		tb.Fatal(rootErr)
	}
	return root
}

// findRoot sets root, or rootErr, once.
func findRoot() {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		rootErr = "testkit: cannot locate the source file (built with -trimpath?)"
		return
	}
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			root = dir
			return
		}
		if filepath.Dir(dir) == dir {
			rootErr = "testkit: no go.mod above " + file
			return
		}
	}
}

// Shared returns the absolute path of the read-only test data, ../shared
// beside the repository root, joined with elem (slash-separated parts such
// as "models/glove-120k" are fine). It fails the test with a clear message
// when ../shared is missing; it does not check that elem exists.
func Shared(tb testing.TB, elem ...string) string {
	tb.Helper()
	Root(tb) // fails the test, rather than panicking, when there is no root
	if st, err := os.Stat(SharedDir()); err != nil || !st.IsDir() {
		tb.Fatalf("testkit: test data %s is missing: check out shared/ beside the repository", SharedDir())
	}
	return SharedDir(elem...)
}

// SharedDir is Shared for package-level values, where no testing.TB is at
// hand: the absolute path of ../shared beside the repository root, joined
// with elem. It panics when the repository root cannot be found; a
// missing ../shared shows as the first test's file-not-found error.
func SharedDir(elem ...string) string {
	rootOnce.Do(findRoot)
	if rootErr != "" {
		panic(rootErr)
	}
	parts := []string{filepath.Dir(root), "shared"}
	for _, e := range elem {
		parts = append(parts, filepath.FromSlash(e))
	}
	return filepath.Join(parts...)
}

// CopyTree copies the regular files under src to dst (mode 0644, folders
// 0755), skipping symlinks and other special files; src may also be a
// single file, copied to the path dst. It fails the test on any error.
func CopyTree(tb testing.TB, src, dst string) {
	tb.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// JSONLines reads a JSON Lines file (one JSON value per line, lines up to
// 16 MiB) into a slice of T, such as the reference rows under
// ../shared/models/reference. It fails the test when the file cannot be
// read, a line does not decode, or the file holds no rows.
func JSONLines[T any](tb testing.TB, path string) []T {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var rows []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			tb.Fatalf("%s line %d: %v", path, len(rows)+1, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	if len(rows) == 0 {
		tb.Fatalf("%s: no rows", path)
	}
	return rows
}

// WriteTree writes files (slash-separated paths relative to dir, and their
// contents) under dir, creating folders as needed. It fails the test on
// any error.
func WriteTree(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// TinyBEIR writes a three-document BEIR dataset with two judged train
// queries (corpus.jsonl, queries.jsonl, qrels/train.tsv) into a new
// temporary folder and returns it.
func TinyBEIR(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	WriteTree(tb, dir, map[string]string{
		"corpus.jsonl": `{"_id": "d1", "title": "Zebra stripes", "text": "Why zebras have black and white stripes."}
{"_id": "d2", "title": "Penguin diet", "text": "Penguins eat krill, squid and fish."}
{"_id": "d3", "title": "Camel humps", "text": "Camels store fat in their humps, not water."}
`,
		"queries.jsonl": `{"_id": "q1", "text": "what do penguins eat"}
{"_id": "q2", "text": "camel hump fat"}
`,
		"qrels/train.tsv": "query-id\tcorpus-id\tscore\nq1\td2\t1\nq2\td3\t1\n",
	})
	return dir
}
