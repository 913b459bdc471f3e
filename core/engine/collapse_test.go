package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/neardup"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/internal/hooktest"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// collapseQueries are searches whose top results, on five versions of the
// PowerShell Management docs, are mostly copies of one section.
var collapseQueries = []string{
	"Get-ChildItem syntax",
	"Get-ChildItem -Recurse -Depth",
	"copy an item to another location",
	"registry key property value",
	"stop a service on a remote computer",
	"test whether a path exists",
	"Get-Content tail wait",
	"set the current location",
}

// Search with Collapse returns K hits of which no two are near-duplicates,
// the same ones, in the same order, as collapsing a long uncollapsed list,
// and loses none of the uncollapsed top K: each is a hit or folded into one.
func TestSearchCollapse(t *testing.T) {
	ctx := context.Background()
	env := hooktest.NewEnvWith(t, true, hooktest.PowerShellVersions...)
	e := mustOpen(t, env.DB, testkit.Shared(t, "models/glove-120k"))
	folding := 0 // searches whose plain top 10 holds near-duplicates
	defer func() {
		if folding < 20 {
			t.Errorf("only %d of 24 plain top 10s hold near-duplicates: the test checks little", folding)
		}
	}()
	for _, mode := range []string{retrieve.ModeHybrid, retrieve.ModeBM25, retrieve.ModeVector} {
		for _, q := range collapseQueries {
			t.Run(mode+"/"+q, func(t *testing.T) {
				opt := retrieve.Options{Mode: mode, K: 10, Candidates: 60}
				plain, err := e.Search(ctx, q, opt)
				if err != nil {
					t.Fatal(err)
				}
				opt.Collapse = true
				got, err := e.Search(ctx, q, opt)
				if err != nil {
					t.Fatal(err)
				}
				opt.Collapse, opt.K = false, 60
				long, err := e.Search(ctx, q, opt)
				if err != nil {
					t.Fatal(err)
				}
				ref := retrieve.Collapse(long)
				if len(retrieve.Collapse(plain)) < len(plain) {
					folding++
				}
				if len(got) != min(10, len(ref)) {
					t.Fatalf("%d hits, want %d", len(got), min(10, len(ref)))
				}
				for i, h := range got {
					for _, o := range got[:i] {
						if neardup.Near(neardup.Of(h.Text), neardup.Of(o.Text)) {
							t.Errorf("hits %s § %s and %s § %s are near-duplicates", o.Path, o.Section, h.Path, h.Section)
						}
					}
					if h.ChunkID != ref[i].ChunkID {
						t.Errorf("hit %d is chunk %d, collapsing 60 gives %d", i+1, h.ChunkID, ref[i].ChunkID)
						continue
					}
					ids := func(hs []retrieve.Hit) []int64 {
						var out []int64
						for _, d := range hs {
							out = append(out, d.ChunkID)
						}
						return out
					}
					// The folds agree with the reference's as far as both
					// go: knowing the index's copies, the search hydrates
					// past the reference's 60 and may fold more.
					if a, b := ids(h.AlsoIn), ids(ref[i].AlsoIn); !slices.Equal(a[:min(len(a), len(b))], b[:min(len(a), len(b))]) {
						t.Errorf("hit %d folds %v, which disagrees with %v", i+1, a, b)
					}
					for _, d := range h.AlsoIn {
						if d.BM25Rank == 0 && d.VecRank == 0 || d.Path == "" {
							t.Errorf("folded hit %d has no rank or path: %+v", d.ChunkID, d)
						}
					}
				}
				for _, p := range plain {
					if !slices.ContainsFunc(got, func(h retrieve.Hit) bool {
						return h.ChunkID == p.ChunkID || slices.ContainsFunc(h.AlsoIn, func(d retrieve.Hit) bool { return d.ChunkID == p.ChunkID })
					}) {
						t.Errorf("%s § %s of the plain top 10 is neither shown nor folded", p.Path, p.Section)
					}
				}
			})
		}
	}
}

// The Get-ChildItem case: the SYNTAX sections of 7.4 to 7.7 are
// byte-identical and come back as one hit that names the other three;
// 5.1's, which lists other parameters, stays a hit of its own.
func TestSearchCollapseGetChildItem(t *testing.T) {
	env := hooktest.NewEnvWith(t, true, hooktest.PowerShellVersions...)
	e := mustOpen(t, env.DB, testkit.Shared(t, "models/glove-120k"))
	hits, err := e.Search(context.Background(), "Get-ChildItem syntax", retrieve.Options{K: 10, Collapse: true})
	if err != nil {
		t.Fatal(err)
	}
	var syntax []string
	for _, h := range hits {
		if h.Section == "SYNTAX" && strings.HasSuffix(h.Path, "/Get-ChildItem.md") {
			var also []string
			for _, d := range h.AlsoIn {
				also = append(also, d.Path)
			}
			slices.Sort(also)
			syntax = append(syntax, fmt.Sprintf("%s also in %v", h.Path, also))
		}
	}
	slices.Sort(syntax)
	const dir = "/Microsoft.PowerShell.Management/Get-ChildItem.md"
	want := []string{
		"ps/5.1" + dir + " also in []",
		"ps/7.4" + dir + " also in [ps/7.5" + dir + " ps/7.6" + dir + " ps/7.7" + dir + "]",
	}
	if !slices.Equal(syntax, want) {
		t.Errorf("SYNTAX hits:\n%s\nwant\n%s", strings.Join(syntax, "\n"), strings.Join(want, "\n"))
	}
}

// With the default 30 candidates per leg, five copies of most sections
// can leave fewer than 10 distinct hits among all fused candidates; Search
// then asks the legs for more (a hit ranked below 30 in both legs shows
// it), and what the first window ranked keeps its order.
func TestSearchCollapseDeepens(t *testing.T) {
	ctx := context.Background()
	env := hooktest.NewEnvWith(t, true, hooktest.PowerShellVersions...)
	e := mustOpen(t, env.DB, testkit.Shared(t, "models/glove-120k"))
	deepened := 0
	for _, q := range collapseQueries {
		plain, err := e.Search(ctx, q, retrieve.Options{K: 10})
		if err != nil {
			t.Fatal(err)
		}
		ref := retrieve.Collapse(plain)
		got, err := e.Search(ctx, q, retrieve.Options{K: 10, Collapse: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 10 {
			t.Errorf("%q: %d hits, want 10", q, len(got))
		}
		for i := range min(len(ref), len(got)) {
			if got[i].ChunkID != ref[i].ChunkID {
				t.Errorf("%q: hit %d is chunk %d, collapsing the plain top 10 gives %d", q, i+1, got[i].ChunkID, ref[i].ChunkID)
			}
		}
		if slices.ContainsFunc(got, func(h retrieve.Hit) bool {
			return (h.BM25Rank == 0 || h.BM25Rank > retrieve.DefaultCandidates) && (h.VecRank == 0 || h.VecRank > retrieve.DefaultCandidates)
		}) {
			deepened++
		}
	}
	if deepened == 0 {
		t.Error("no query needed more candidates: the test checks nothing")
	}
}
