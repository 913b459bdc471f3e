package engine

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/internal/neardup"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

var neardupDB = flag.String("neardup.db", "", "index of ../shared/corpora/large built with glove-120k, for TestMeasureNearDupTopK")

// versionPage strips the PowerShell-Docs version folder from a path, so
// two versions of one page compare equal.
var versionPage = regexp.MustCompile(`^PowerShell-Docs/reference/\d+\.\d+/`)

// TestMeasureNearDupTopK measures the resemblance of the chunk pairs in
// real top-10 lists (core/internal/neardup/NEARDUP.md, "In result lists"):
// the default hybrid search of every query and prompt the project keeps
// (eval/large-queries.jsonl and core/recall's prompt sets), on an index of
// the large corpus:
//
//	vaultctx index --vault ../shared/corpora/large --db /tmp/large.db --model ../shared/models/glove-120k
//	go test -tags sqlite_fts5 ./core/engine -run TestMeasureNearDupTopK -neardup.db /tmp/large.db -v
func TestMeasureNearDupTopK(t *testing.T) {
	if *neardupDB == "" {
		t.Skip("set -neardup.db to an index of the large corpus")
	}
	ctx := context.Background()
	e := mustOpen(t, *neardupDB, testkit.Shared(t, "models/glove-120k"))
	type line struct {
		Query, Prompt string
	}
	root := testkit.Root(t)
	var queries []string
	for _, f := range []string{"eval/large-queries.jsonl", "core/recall/testdata/relevant.jsonl", "core/recall/testdata/irrelevant.jsonl",
		"core/recall/testdata/prompts/answerable.jsonl", "core/recall/testdata/prompts/unrelated.jsonl"} {
		for _, l := range testkit.JSONLines[line](t, filepath.Join(root, f)) {
			queries = append(queries, l.Query+l.Prompt)
		}
	}
	opt := config.Defaults().Search.Options(retrieve.ModeHybrid, 0)
	labels := []string{"same page and section, two versions", "same note", "other notes"}
	rs := make([][]float64, len(labels))
	type close struct {
		r    float64
		a, b string
	}
	var closest []close // pairs that are not version copies, r >= 0.5
	lists, withCopies, distinct, short := 0, 0, 0, 0
	for _, q := range queries {
		plain, err := e.Search(ctx, q, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(plain) == 0 {
			continue
		}
		lists++
		sigs := make([]neardup.Sig, len(plain))
		for i, h := range plain {
			sigs[i] = neardup.Of(h.Text)
		}
		for i, a := range plain {
			for j := i + 1; j < len(plain); j++ {
				b := plain[j]
				r := neardup.Resemblance(sigs[i], sigs[j])
				k := 2
				switch {
				case a.Path != b.Path && a.Section == b.Section && versionPage.ReplaceAllString(a.Path, "") == versionPage.ReplaceAllString(b.Path, ""):
					k = 0
				case a.Path == b.Path:
					k = 1
				}
				rs[k] = append(rs[k], r)
				if k > 0 && r >= 0.5 {
					closest = append(closest, close{r, a.Path + " § " + a.Section, b.Path + " § " + b.Section})
				}
			}
		}
		n := len(retrieve.Collapse(plain))
		if n < len(plain) {
			withCopies++
		}
		distinct += n
		opt.Collapse = true
		got, err := e.Search(ctx, q, opt)
		opt.Collapse = false
		if err != nil {
			t.Fatal(err)
		}
		if len(got) < len(plain) {
			short++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d queries, %d with hits; %d plain top 10s hold near-duplicates (%.1f distinct chunks on average); %d collapsed top 10s are shorter than the plain ones\n\n",
		len(queries), lists, withCopies, float64(distinct)/float64(lists), short)
	ts := []float64{0.5, 0.6, 0.7, 0.8, 0.9, 1}
	b.WriteString("| pairs in one top 10 | n |")
	for _, t := range ts {
		fmt.Fprintf(&b, " >= %.1f |", t)
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(ts)) + "\n")
	for k, l := range labels {
		fmt.Fprintf(&b, "| %s | %d |", l, len(rs[k]))
		for _, t := range ts {
			n := 0
			for _, r := range rs[k] {
				if r >= t {
					n++
				}
			}
			fmt.Fprintf(&b, " %d |", n)
		}
		b.WriteString("\n")
	}
	slices.SortFunc(closest, func(x, y close) int {
		if x.r != y.r {
			if x.r > y.r {
				return -1
			}
			return 1
		}
		return strings.Compare(x.a+x.b, y.a+y.b)
	})
	b.WriteString("\nPairs that are not two versions of one section, r in [0.5, 1), closest first:\n\n")
	seen := map[string]bool{}
	for _, c := range closest {
		key := fmt.Sprintf("%.3f %s | %s", c.r, c.a, c.b)
		if c.r < 1 && !seen[key] {
			seen[key] = true
			fmt.Fprintf(&b, "- %s\n", key)
		}
	}
	t.Log("\n" + b.String())
}
