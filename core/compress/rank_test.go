package compress

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/retrieve"
)

// TestEachTokenMatchesTokens checks the allocation-free tokenizer against
// the plain one on every real line and a few edge cases.
func TestEachTokenMatchesTokens(t *testing.T) {
	lines := append(allCaseLines(t), "Ünïcode MIXED ✓case x_y <dur> A1 0x<addr> "+string(make([]byte, 0))+"AVeryLongIdentifierThatIsLongerThanSixtyFourBytesForSureYesIndeedItIs")
	for _, l := range lines {
		var got []string
		eachToken(l, func(tok string, lowered []byte) {
			if lowered != nil {
				tok = string(lowered)
			}
			got = append(got, tok)
		})
		if want := tokens(l); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("eachToken(%q) = %q, tokens = %q", l, got, want)
		}
	}
}

func FuzzEachToken(f *testing.F) {
	for _, s := range []string{"Ünïcode MIXED ✓case x_y <dur> A1 0x<addr>", "━━━ 12 ab", "ÀB cD"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got []string
		eachToken(s, func(tok string, lowered []byte) {
			if lowered != nil {
				tok = string(lowered)
			}
			got = append(got, tok)
		})
		if want := tokens(s); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("eachToken(%q) = %q, tokens = %q", s, got, want)
		}
	})
}

// TestBM25 checks scores computed from the formula on a tiny corpus: the
// unit with the query term twice (and the same length) ranks first, units
// without it are absent.
func TestBM25(t *testing.T) {
	docs := [][]string{{"alpha", "beta"}, {"linker", "error", "linker"}, {"linker", "ok", "fine"}, {"gamma"}}
	ids := []int64{10, 11, 12, 13}
	got := bm25Rank(ids, func(k int, fn func(string, []byte)) {
		for _, w := range docs[k] {
			fn(w, nil)
		}
	}, []string{"linker"})
	if want := []int64{11, 12}; !reflect.DeepEqual(got, want) {
		t.Fatalf("bm25Rank = %v, want %v", got, want)
	}
}

// TestRankUnitsFusion checks that rankUnits orders ranked units by
// retrieve.Fuse of the BM25 and edge lists, the BM25 list computed by the
// reference bm25Rank from the units' texts (a run's representative).
func TestRankUnitsFusion(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		words := []string{"compiling", "checking", "linking", "copying", "writing", "reading", "scanning"}
		fmt.Fprintf(&b, "%s module%c part %d\n", words[i%len(words)], 'a'+rune(i%26), i)
		if i == 20 {
			b.WriteString("linker step here\n")
		}
		if i == 30 {
			for k := range 8 { // a run, ranked by its representative
				fmt.Fprintf(&b, "fetch linker-%d.tar ok\n", 7-k)
			}
		}
	}
	req := Request{Command: "make", Prompt: "why does the linker fail", Stdout: b.String()}
	q := newQuery(req)
	lines, _ := splitStreams(req, false, q)
	units := buildUnits(lines, q, maxPeriod)
	rankUnits(context.Background(), units, lines, q, nil)
	var ids []int64
	var streams []int
	for i, u := range units {
		if u.tier == tierRank {
			ids = append(ids, int64(i))
			streams = append(streams, u.stream)
		}
	}
	if len(ids) < 4 {
		t.Fatalf("only %d ranked units", len(ids))
	}
	runs := 0
	var unitTokens = func(k int, fn func(string, []byte)) {
		u := units[ids[k]]
		if u.run {
			runs++
			eachToken(u.repText(lines), fn)
			return
		}
		for i := u.first; i <= u.last; i++ {
			eachToken(lines[i].text, fn)
		}
	}
	fused := retrieve.Fuse(0, retrieve.Ranked{IDs: bm25Rank(ids, unitTokens, queryTerms(req)), Weight: 1}, retrieve.Ranked{IDs: edgeRank(ids, streams), Weight: 1})
	if runs == 0 {
		t.Fatal("no collapsed run among the ranked units")
	}
	for r, f := range fused {
		if units[f.ID].rank != r {
			t.Fatalf("unit %d has rank %d, fusion says %d", f.ID, units[f.ID].rank, r)
		}
	}
}

func TestEdgeRank(t *testing.T) {
	// Two streams: ids 1-5 on stdout, 6-8 on stderr.
	got := edgeRank([]int64{1, 2, 3, 4, 5, 6, 7, 8}, []int{0, 0, 0, 0, 0, 1, 1, 1})
	want := []int64{1, 5, 6, 8, 2, 4, 7, 3}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("edgeRank = %v, want %v", got, want)
	}
}
