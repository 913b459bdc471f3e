package eval

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParseJudgment(t *testing.T) {
	tests := []struct {
		in   string
		want Judgment
		err  string
	}{
		{in: "dir/note.md", want: Judgment{Path: "dir/note.md"}},
		{in: "./dir//note.md#  Remarks ", want: Judgment{Path: "dir/note.md", Section: "Remarks"}},
		{in: "a/../b.md#C# and F#", want: Judgment{Path: "b.md", Section: "C# and F#"}},
		{in: "", err: "empty path"},
		{in: "#Section", err: "empty path"},
		{in: `dir\note.md`, err: "forward slashes"},
		{in: "/abs/note.md", err: "relative"},
		{in: "../out.md", err: "leaves the vault"},
		{in: "note.md#", err: "empty section"},
		{in: ".", err: "vault itself"},
		{in: "a/..#S", err: "vault itself"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseJudgment(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestDecodeVaultQueries(t *testing.T) {
	good := `{"query": "q one", "relevant": ["a.md"]}` + "\n\n" +
		`{"id": "x", "kind": "error", "query": "q two", "relevant": ["b.md#S", "c.md"]}` + "\n"
	qs, err := decodeVaultQueries(strings.NewReader(good), "set.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 || qs[0].ID != "L1" || qs[1].ID != "x" || qs[1].Kind != "error" || len(qs[1].Relevant) != 2 {
		t.Errorf("got %+v", qs)
	}

	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"typo in field", `{"query": "q", "relevent": ["a.md"]}`, 1, "unknown field"},
		{"no query", `{"relevant": ["a.md"]}`, 1, `"query"`},
		{"no relevant", `{"query": "q", "relevant": []}`, 1, `"relevant"`},
		{"bad path", `{"query": "q", "relevant": ["../a.md"]}`, 1, "leaves the vault"},
		{"duplicate", `{"query": "q", "relevant": ["a.md", "./a.md"]}`, 1, "twice"},
		{"both granularities", `{"query": "q", "relevant": ["a.md#S", "a.md"]}`, 1, "both the whole note"},
		{"duplicate id", `{"id": "a", "query": "q", "relevant": ["a.md"]}` + "\n" + `{"id": "a", "query": "r", "relevant": ["a.md"]}`, 2, "already used on line 1"},
		{"two values", `{"query": "q", "relevant": ["a.md"]} {}`, 1, "more than one"},
		{"not json", "query: q", 1, "bad JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeVaultQueries(strings.NewReader(tt.in), "set.jsonl")
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "set.jsonl" || pe.Line != tt.line || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %v, want set.jsonl:%d: ...%s...", err, tt.line, tt.msg)
			}
		})
	}
}

func TestVaultSetUnits(t *testing.T) {
	set, err := VaultSet("t", []VaultQuery{
		{ID: "note", Query: "q", Relevant: []string{"a.md", "b.md"}},
		{ID: "section", Query: "q", Relevant: []string{"a.md#Install", "c.md"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		query  int
		hits   []Hit
		ndcg   float64
		recall float64
		rr     float64
	}{
		{
			name:  "chunks of a whole-note judgment count once at the best rank",
			query: 0,
			hits:  []Hit{{Path: "a.md", Section: "Intro"}, {Path: "a.md", Section: "Usage"}, {Path: "x.md", Section: ""}, {Path: "b.md", Section: "S"}},
			// units: a.md, x.md, b.md
			ndcg:   (1/disc(1) + 1/disc(3)) / (1/disc(1) + 1/disc(2)),
			recall: 1,
			rr:     1,
		},
		{
			name:  "chunks of an unjudged note also count once",
			query: 0,
			hits:  []Hit{{Path: "x.md", Section: "1"}, {Path: "x.md", Section: "2"}, {Path: "./b.md", Section: ""}},
			// units: x.md, b.md
			ndcg:   (1 / disc(2)) / (1/disc(1) + 1/disc(2)),
			recall: 1.0 / 2,
			rr:     1.0 / 2,
		},
		{
			name:  "a section judgment needs path and section to match",
			query: 1,
			hits:  []Hit{{Path: "a.md", Section: "Remarks"}, {Path: "a.md", Section: " install "}, {Path: "c.md", Section: "Any"}},
			// units: a.md#remarks, a.md#install, c.md
			ndcg:   (1/disc(2) + 1/disc(3)) / (1/disc(1) + 1/disc(2)),
			recall: 1,
			rr:     1.0 / 2,
		},
		{
			name:  "a chunk split at an H3 counts as its judged H2",
			query: 1,
			hits:  []Hit{{Path: "a.md", Section: "Install > Windows"}, {Path: "a.md", Section: "Install > Linux"}, {Path: "a.md", Section: "Installer > X"}},
			// units: a.md#install, a.md#installer > x
			ndcg:   (1 / disc(1)) / (1/disc(1) + 1/disc(2)),
			recall: 1.0 / 2,
			rr:     1,
		},
		{
			name:  "the right section in another note does not count",
			query: 1,
			hits:  []Hit{{Path: "b.md", Section: "Install"}},
			ndcg:  0, recall: 0, rr: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := set.Queries[tt.query]
			units := make([]string, len(tt.hits))
			for i, h := range tt.hits {
				units[i] = q.keyOf(h)
			}
			for _, c := range []struct {
				metric    string
				got, want float64
			}{
				{"NDCG", NDCG(units, q.Grades, 10), tt.ndcg},
				{"Recall", Recall(units, q.Grades, 10), tt.recall},
				{"RR", ReciprocalRank(units, q.Grades, 10), tt.rr},
			} {
				if math.Abs(c.got-c.want) > 1e-12 {
					t.Errorf("%s = %v, want %v (units %q)", c.metric, c.got, c.want, units)
				}
			}
		})
	}
}
