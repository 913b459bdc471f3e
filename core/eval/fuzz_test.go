package eval

import (
	"errors"
	"path"
	"strings"
	"testing"
)

// FuzzParseJudgment checks that any accepted judgment stays inside the
// vault and that its key is stable under re-parsing.
func FuzzParseJudgment(f *testing.F) {
	for _, s := range []string{"a.md", "dir/n.md#Remarks", "../x.md", "/abs.md", "a.md#", "./a//b/../c.md#C# x", "#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		j, err := ParseJudgment(s)
		if err != nil {
			return
		}
		if j.Path == "" || path.IsAbs(j.Path) || j.Path == ".." || strings.HasPrefix(j.Path, "../") {
			t.Fatalf("ParseJudgment(%q) = %+v escapes the vault", s, j)
		}
		again := j.Path
		if j.Section != "" {
			again += "#" + j.Section
		}
		j2, err := ParseJudgment(again)
		if err != nil || judgmentKey(j2) != judgmentKey(j) {
			t.Fatalf("re-parse of %q: %+v, %v; first %+v", again, j2, err, j)
		}
	})
}

// FuzzDecodeVaultQueries checks that the reader never panics, reports
// failures as a *ParseError, and that every accepted query builds a set.
func FuzzDecodeVaultQueries(f *testing.F) {
	f.Add(`{"query": "q", "relevant": ["a.md", "b.md#S"]}` + "\n")
	f.Add(`{"id": "x", "kind": "k", "query": "q", "relevant": ["a.md"]}` + "\r\n\n" + `{"query": "r", "relevant": ["c.md"]}`)
	f.Add(`{"query": "q", "relevant": ["a.md#S", "a.md"]}`)
	f.Add("not json\n")
	f.Fuzz(func(t *testing.T, in string) {
		qs, err := decodeVaultQueries(strings.NewReader(in), "f.jsonl")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		if _, err := VaultSet("f", qs); err != nil {
			t.Fatalf("accepted queries fail VaultSet: %v", err)
		}
	})
}

// FuzzParseQrels checks that the qrels reader never panics and that every
// judgment it returns names a known query and document.
func FuzzParseQrels(f *testing.F) {
	f.Add("query-id\tcorpus-id\tscore\nq\td\t1\n")
	f.Add("q\td\t2\r\nq\te\t0\n")
	f.Add("q\td\n")
	f.Add("q\td\t1\nq\td\t1\n")
	queries := map[string]bool{"q": true, "r": true}
	docs := map[string]bool{"d": true, "e": true}
	f.Fuzz(func(t *testing.T, in string) {
		qrels, err := parseQrels(strings.NewReader(in), "f.tsv", queries, docs)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		for q, g := range qrels {
			for d := range g {
				if !queries[q] || !docs[d] {
					t.Fatalf("judgment %q/%q names an unknown id", q, d)
				}
			}
		}
	})
}

// FuzzDecodeJSONL checks that BEIR corpus and query lines never panic the
// reader, that failures are *ParseError, and that accepted ids are not blank.
func FuzzDecodeJSONL(f *testing.F) {
	f.Add(`{"_id": "d1", "title": "t", "text": "x"}` + "\n")
	f.Add(`{"_id": 42, "text": "n"}` + "\r\n\n" + `{"_id": 1e3}`)
	f.Add(`{"title": "no id"}`)
	f.Add(`{"_id": true}`)
	f.Add(`{"_id": null}`)
	f.Fuzz(func(t *testing.T, in string) {
		err := decodeJSONL(strings.NewReader(in), "f.jsonl", func(r beirRecord) error {
			if strings.TrimSpace(string(r.ID)) == "" {
				t.Fatalf("blank id accepted from %q", in)
			}
			return nil
		})
		var pe *ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("error %v is not a *ParseError", err)
		}
	})
}
