package eval

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// sciFact is the real BEIR SciFact dataset shipped in ../shared.
func sciFact(tb testing.TB) string { return testkit.Shared(tb, "bench/scifact") }

func loadSciFact(tb testing.TB) *Dataset {
	tb.Helper()
	ds, err := LoadBEIR(sciFact(tb), "train")
	if err != nil {
		tb.Fatalf("LoadBEIR: %v", err)
	}
	return ds
}

// fileLines returns the non-blank lines of a file.
func fileLines(tb testing.TB, path string) []string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			out = append(out, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

func TestLoadBEIRSciFact(t *testing.T) {
	ds := loadSciFact(t)
	if got, want := len(ds.Docs), len(fileLines(t, filepath.Join(sciFact(t), "corpus.jsonl"))); got != want {
		t.Errorf("docs = %d, want one per corpus line (%d)", got, want)
	}
	qrels := fileLines(t, filepath.Join(sciFact(t), "qrels", "train.tsv"))[1:] // header
	judged := map[string]bool{}
	for _, l := range qrels {
		judged[strings.Split(l, "\t")[0]] = true
	}
	if len(ds.Queries) != len(judged) || len(ds.Qrels) != len(judged) {
		t.Errorf("queries = %d, qrels = %d, want %d judged queries", len(ds.Queries), len(ds.Qrels), len(judged))
	}
	n := 0
	for _, g := range ds.Qrels {
		n += len(g)
	}
	if n != len(qrels) {
		t.Errorf("judgments = %d, want %d", n, len(qrels))
	}
	if ds.Name != "scifact" || ds.Split != "train" {
		t.Errorf("name/split = %q/%q", ds.Name, ds.Split)
	}
	for _, d := range ds.Docs {
		if d.ID == "" || d.Text == "" {
			t.Fatalf("doc with empty id or text: %+v", d)
		}
	}
}

// writeBEIR writes a small BEIR dataset into a temp dir.
func writeBEIR(tb testing.TB, corpus, queries, qrels string) string {
	tb.Helper()
	dir := tb.TempDir()
	must := func(err error) {
		if err != nil {
			tb.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "qrels"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "corpus.jsonl"), []byte(corpus), 0o644))
	must(os.WriteFile(filepath.Join(dir, "queries.jsonl"), []byte(queries), 0o644))
	must(os.WriteFile(filepath.Join(dir, "qrels", "test.tsv"), []byte(qrels), 0o644))
	return dir
}

func TestLoadBEIRSmall(t *testing.T) {
	corpus := `{"_id": "d1", "title": "T1", "text": "one"}` + "\r\n\n" +
		`{"_id": "\u0000", "text": "nul"}` + "\n" +
		`{"_id": 2, "title": "", "text": "two", "extra": [1]}` + "\n"
	queries := `{"_id": "q1", "text": "first"}` + "\n" + `{"_id": "q2", "text": "unjudged"}` + "\n" +
		`{"_id": "q3", "text": "third"}` + "\n"
	qrels := "query-id\tcorpus-id\tscore\nq3\t2\t2\nq1\td1\t1\nq1\t2\t0\n"
	ds, err := LoadBEIR(writeBEIR(t, corpus, queries, qrels), "test")
	if err != nil {
		t.Fatal(err)
	}
	wantDocs := []Doc{{ID: "d1", Title: "T1", Text: "one"}, {ID: "\x00", Text: "nul"}, {ID: "2", Text: "two"}}
	if !slices.Equal(ds.Docs, wantDocs) {
		t.Errorf("docs = %+v, want %+v", ds.Docs, wantDocs)
	}
	wantQ := []Query{{ID: "q1", Text: "first"}, {ID: "q3", Text: "third"}}
	if !slices.Equal(ds.Queries, wantQ) {
		t.Errorf("queries = %+v, want %+v (judged only, file order)", ds.Queries, wantQ)
	}
	if g := ds.Qrels["q1"]; len(g) != 2 || g["d1"] != 1 || g["2"] != 0 {
		t.Errorf("qrels q1 = %v", g)
	}
	if g := ds.Qrels["q3"]; len(g) != 1 || g["2"] != 2 {
		t.Errorf("qrels q3 = %v", g)
	}
}

func TestLoadBEIRErrors(t *testing.T) {
	okCorpus := `{"_id": "d1", "title": "t", "text": "x"}` + "\n"
	okQueries := `{"_id": "q1", "text": "x"}` + "\n"
	okQrels := "query-id\tcorpus-id\tscore\nq1\td1\t1\n"
	tests := []struct {
		name                   string
		corpus, queries, qrels string
		file                   string
		line                   int
		msg                    string
	}{
		{"bad json in corpus", okCorpus + "{nope\n", okQueries, okQrels, "corpus.jsonl", 2, "bad JSON"},
		{"missing _id", `{"title": "t", "text": "x"}` + "\n", okQueries, okQrels, "corpus.jsonl", 1, `missing "_id"`},
		{"null _id", `{"_id": null, "text": "x"}` + "\n", okQueries, okQrels, "corpus.jsonl", 1, `missing "_id"`},
		{"empty _id", `{"_id": " ", "text": "x"}` + "\n", okQueries, okQrels, "corpus.jsonl", 1, `empty "_id"`},
		{"bool _id", `{"_id": true, "text": "x"}` + "\n", okQueries, okQrels, "corpus.jsonl", 1, "string or number"},
		{"duplicate doc", okCorpus + "\n" + okCorpus, okQueries, okQrels, "corpus.jsonl", 3, "duplicate _id"},
		{"duplicate query", okCorpus, okQueries + okQueries, okQrels, "queries.jsonl", 2, "duplicate _id"},
		{"two fields", okCorpus, okQueries, "q1\td1\n", "test.tsv", 1, "3 tab-separated"},
		{"bad score", okCorpus, okQueries, okQrels + "q1\td1\tx\n", "test.tsv", 3, "not an integer"},
		{"unknown query", okCorpus, okQueries, okQrels + "q9\td1\t1\n", "test.tsv", 3, `query-id "q9"`},
		{"unknown doc", okCorpus, okQueries, okQrels + "q1\td9\t1\n", "test.tsv", 3, `corpus-id "d9"`},
		{"duplicate judgment", okCorpus, okQueries, okQrels + "q1\td1\t2\n", "test.tsv", 3, "duplicate judgment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadBEIR(writeBEIR(t, tt.corpus, tt.queries, tt.qrels), "test")
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if filepath.Base(pe.File) != tt.file || pe.Line != tt.line || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %v, want %s:%d: ...%s...", err, tt.file, tt.line, tt.msg)
			}
		})
	}
	t.Run("missing split", func(t *testing.T) {
		_, err := LoadBEIR(writeBEIR(t, okCorpus, okQueries, okQrels), "dev")
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("err = %v, want fs.ErrNotExist", err)
		}
	})
}

func TestSubsetSciFact(t *testing.T) {
	ds := loadSciFact(t)
	const n = 1000
	sub := ds.Subset(n)
	if len(sub.Docs) != n || sub.DocBudget != n {
		t.Fatalf("subset has %d docs (budget %d), want %d", len(sub.Docs), sub.DocBudget, n)
	}
	kept := map[string]bool{}
	for _, d := range sub.Docs {
		kept[d.ID] = true
	}
	judged := map[string]bool{}
	for _, q := range sub.Queries {
		for id := range sub.Qrels[q.ID] {
			judged[id] = true
			if !kept[id] {
				t.Errorf("query %s: judged doc %s not kept", q.ID, id)
			}
		}
	}
	// Distractors are the first unjudged docs in corpus order, and all docs
	// keep corpus order.
	pos := 0
	wantDistractors := n - len(judged)
	for _, d := range ds.Docs {
		if judged[d.ID] || wantDistractors > 0 {
			if !judged[d.ID] {
				wantDistractors--
			}
			if sub.Docs[pos].ID != d.ID {
				t.Fatalf("subset doc %d = %s, want %s", pos, sub.Docs[pos].ID, d.ID)
			}
			pos++
		}
	}
	// SciFact train judges fewer than n docs in all, so no query is dropped.
	allJudged := map[string]bool{}
	for _, g := range ds.Qrels {
		for id := range g {
			allJudged[id] = true
		}
	}
	if len(allJudged) <= n && len(sub.Queries) != len(ds.Queries) {
		t.Errorf("kept %d of %d queries although all judged docs fit", len(sub.Queries), len(ds.Queries))
	}
	if again := ds.Subset(n); !slices.Equal(again.Docs, sub.Docs) {
		t.Error("Subset is not deterministic")
	}
}

func TestSubsetDropsOverflowingQueries(t *testing.T) {
	ds := &Dataset{
		Name: "x", Split: "test",
		Docs:    []Doc{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}},
		Queries: []Query{{ID: "q1"}, {ID: "q2"}, {ID: "q3"}},
		Qrels: map[string]Grades{
			"q1": {"b": 1},
			"q2": {"c": 1, "d": 1, "e": 0}, // 3 new docs: over budget 3 after q1
			"q3": {"e": 1, "b": 1},
		},
	}
	sub := ds.Subset(3)
	var qs, docs []string
	for _, q := range sub.Queries {
		qs = append(qs, q.ID)
	}
	for _, d := range sub.Docs {
		docs = append(docs, d.ID)
	}
	if !slices.Equal(qs, []string{"q1", "q3"}) || !slices.Equal(docs, []string{"a", "b", "e"}) {
		t.Errorf("queries %v docs %v, want [q1 q3] and [a b e]", qs, docs)
	}
	if ds.Subset(0) != ds || ds.Subset(5) != ds {
		t.Error("Subset(0) and Subset(len) must return the dataset itself")
	}
}

func TestWriteVault(t *testing.T) {
	ds := &Dataset{Docs: []Doc{
		{ID: "a/b", Title: "Line\none", Text: " body\n"},
		{ID: "a_b", Title: "Second", Text: "two"},
		{ID: "A_B", Title: "", Text: "---\nnot: frontmatter\n---"},
		{ID: ".hidden", Title: "H", Text: "h"},
		{ID: "naïve id", Title: "N", Text: "n"},
	}}
	dir := t.TempDir()
	notes, err := WriteVault(context.Background(), ds, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ id, content string }{
		"a_b.md":       {"a/b", "# Line one\n\nbody\n"},
		"a_b~2.md":     {"a_b", "# Second\n\ntwo\n"},
		"A_B~3.md":     {"A_B", "\n---\nnot: frontmatter\n---\n"},
		"_hidden.md":   {".hidden", "# H\n\nh\n"},
		"na__ve_id.md": {"naïve id", "# N\n\nn\n"},
	}
	if len(notes) != len(want) {
		t.Errorf("notes = %v", notes)
	}
	for name, w := range want {
		if notes[name] != w.id {
			t.Errorf("notes[%q] = %q, want %q", name, notes[name], w.id)
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Error(err)
			continue
		}
		if string(got) != w.content {
			t.Errorf("%s = %q, want %q", name, got, w.content)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := WriteVault(ctx, ds, t.TempDir()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}
