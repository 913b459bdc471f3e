package neardup

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/textan"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// refResemblance is the definition, slowly: Broder's resemblance of the
// sets of Width-term shingles kept as strings, with no hashing and no fast
// path.
func refResemblance(a, b string) float64 {
	ta, tb := textan.Terms(a), textan.Terms(b)
	if len(ta) == 0 || len(tb) == 0 {
		if len(ta) == 0 && len(tb) == 0 && strings.TrimSpace(a) == strings.TrimSpace(b) {
			return 1
		}
		return 0
	}
	sa, sb := refShingles(ta), refShingles(tb)
	inter := 0
	for s := range sa {
		if sb[s] {
			inter++
		}
	}
	return float64(inter) / float64(len(sa)+len(sb)-inter)
}

func refShingles(terms []string) map[string]bool {
	set := map[string]bool{}
	for i := 0; i == 0 || i+Width <= len(terms); i++ {
		set[strings.Join(terms[i:min(i+Width, len(terms))], " ")] = true
	}
	return set
}

// checkPair compares Resemblance and Near with the reference.
func checkPair(t *testing.T, a, b string) {
	t.Helper()
	want := refResemblance(a, b)
	sa, sb := Of(a), Of(b)
	if got := Resemblance(sa, sb); got != want {
		t.Errorf("Resemblance(%.60q, %.60q) = %v, reference %v", a, b, got, want)
	}
	if got := Resemblance(sb, sa); got != want {
		t.Errorf("Resemblance is not symmetric on %.60q, %.60q", a, b)
	}
	if got := Near(sa, sb); got != (want >= Threshold) || got != Near(sb, sa) {
		t.Errorf("Near(%.60q, %.60q) = %v, reference resemblance %v", a, b, got, want)
	}
	if !Near(sa, sa) || Resemblance(sa, sa) != 1 {
		t.Errorf("%.60q is not a near-duplicate of itself", a)
	}
}

func TestResemblance(t *testing.T) {
	// s(n) is a text of n distinct terms, so a text of n terms has
	// n-Width+1 shingles.
	s := func(from, to int) string {
		var w []string
		for i := from; i < to; i++ {
			w = append(w, fmt.Sprintf("w%d", i))
		}
		return strings.Join(w, " ")
	}
	for _, tc := range []struct {
		name string
		a, b string
		want float64
	}{
		{"identical", s(0, 20), s(0, 20), 1},
		{"only punctuation and case differ", "Get-ChildItem [[-Path] <string[]>]", "get childitem path STRING", 1},
		{"white space differs", "a  b\n\nc d e", "a b c d e", 1},
		{"disjoint", s(0, 20), s(20, 40), 0},
		// 17 shared shingles of 17 and 21.
		{"four terms appended", s(0, 20), s(0, 24), 17.0 / 21},
		// The changed 11th term breaks the 4 shingles that hold it: 13
		// of 17 left on each side, union 21.
		{"one term changed", s(0, 20), s(0, 10) + " x " + s(11, 20), 13.0 / 21},
		{"shorter than a shingle, equal", "only three words", "only three words", 1},
		{"shorter than a shingle, different", "only three words", "only two words", 0},
		{"no terms, equal", " --- ", "---", 1},
		{"no terms, different", "---", "***", 0},
		{"no terms against terms", "---", "a b c d", 0},
		{"empty", "", "", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Resemblance(Of(tc.a), Of(tc.b)); got != tc.want {
				t.Errorf("Resemblance = %v, want %v", got, tc.want)
			}
			checkPair(t, tc.a, tc.b)
		})
	}
}

// The fast paths of Near (exact hash, size bound, early stop) must agree
// with the reference on real chunks and on edited copies of them, whose
// resemblance falls on both sides of Threshold.
func TestNearMatchesReference(t *testing.T) {
	cs := loadCorpus(t, testkit.Shared(t, "corpora/large/PowerShell-Docs/reference/7.5/Microsoft.PowerShell.Management"))
	rng := rand.New(rand.NewPCG(7, 8))
	near, far := 0, 0
	for range 3000 {
		a := cs[rng.IntN(len(cs))].text
		b := cs[rng.IntN(len(cs))].text
		if rng.IntN(2) == 0 {
			b = edit(rng, a)
		}
		checkPair(t, a, b)
		if refResemblance(a, b) >= Threshold {
			near++
		} else {
			far++
		}
	}
	if near < 300 || far < 300 {
		t.Errorf("%d pairs near and %d far: the sample does not test both sides", near, far)
	}
}

// edit changes, drops or inserts a few words of text.
func edit(rng *rand.Rand, text string) string {
	w := strings.Fields(text)
	for range rng.IntN(4) {
		if len(w) == 0 {
			break
		}
		i := rng.IntN(len(w))
		switch rng.IntN(3) {
		case 0:
			w[i] = "edited"
		case 1:
			w = slices.Delete(w, i, i+1)
		default:
			w = slices.Insert(w, i, "inserted")
		}
	}
	return strings.Join(w, " ")
}

func FuzzNear(f *testing.F) {
	for _, p := range [][2]string{
		{"Get-ChildItem [[-Path] <string[]>] -Recurse", "Get-ChildItem [[-Path] <string[]>] -Recurse -Depth"},
		{"", " "}, {"---", "***"}, {"a b c d e f", "a b c d e g"}, {"İstanbul \u212a", "i̇stanbul k"}, {"\xff\xfe", "abc"},
	} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		checkPair(t, a, b)
	})
}

func TestMinShared(t *testing.T) {
	for sum := 2; sum < 2000; sum++ {
		n := minShared(sum)
		ok := func(i int) bool { return float64(i)/float64(sum-i) >= Threshold }
		if !ok(n) || n > 1 && ok(n-1) {
			t.Fatalf("minShared(%d) = %d is not the least intersection reaching %v", sum, n, Threshold)
		}
	}
}

// The Get-ChildItem case: the SYNTAX sections of 7.4 to 7.7 are one
// group, 5.1's (other parameters, resemblance 0.56) is its own.
func TestGroupsGetChildItemSyntax(t *testing.T) {
	var g Groups
	got := map[string]int{}
	for _, v := range []string{"7.4", "7.5", "5.1", "7.6", "7.7"} {
		dir := testkit.Shared(t, "corpora/large/PowerShell-Docs/reference", v, "Microsoft.PowerShell.Management")
		for _, c := range loadCorpus(t, dir) {
			if c.path == "Get-ChildItem.md" && c.section == "SYNTAX" {
				got[v] = g.Add(c.text)
			}
		}
	}
	want := map[string]int{"7.4": 0, "7.5": 0, "5.1": 1, "7.6": 0, "7.7": 0}
	if fmt.Sprint(got) != fmt.Sprint(want) || g.Len() != 2 {
		t.Errorf("groups %v (%d), want %v (2)", got, g.Len(), want)
	}
}

// Leaders are pairwise not Near, and every member is Near its leader.
func TestGroupsInvariants(t *testing.T) {
	cs := loadCorpus(t, testkit.Shared(t, "corpora/large/PowerShell-Docs/reference/7.5/Microsoft.PowerShell.Management"))
	rng := rand.New(rand.NewPCG(9, 10))
	for range 50 {
		var texts []string
		for range 30 {
			x := cs[rng.IntN(len(cs))].text
			if len(texts) > 0 && rng.IntN(3) == 0 {
				x = edit(rng, texts[rng.IntN(len(texts))])
			}
			texts = append(texts, x)
		}
		var g Groups
		var leaders []Sig
		for _, x := range texts {
			n, s := g.Add(x), Of(x)
			if n == len(leaders) {
				for _, l := range leaders {
					if Near(l, s) {
						t.Fatalf("new leader %.60q is Near an earlier leader", x)
					}
				}
				leaders = append(leaders, s)
			} else if !Near(leaders[n], s) {
				t.Fatalf("%.60q is in group %d but not Near its leader", x, n)
			}
		}
		if g.Len() != len(leaders) {
			t.Fatalf("Len = %d, %d leaders", g.Len(), len(leaders))
		}
	}
}

func ExampleGroups() {
	var g Groups
	for _, text := range []string{
		"Get-ChildItem [[-Path] <string[]>] [-Recurse] [-Depth <uint>] [-Force]",
		"Get-Item [-Path] <string[]> [-Filter <string>] [-Force]",
		"Get-ChildItem [[-Path] <String[]>] [-Recurse] [-Depth <UInt>] [-Force]", // case differs
	} {
		fmt.Println(g.Add(text))
	}
	fmt.Println(g.Len(), "groups")
	// Output:
	// 0
	// 1
	// 0
	// 2 groups
}

// A text added again, byte for byte, joins the group the Sig comparison
// alone gives it (Add's fast path changes no answer): checked against the
// first-Near-leader rule on sequences full of exact repeats and edits.
func TestGroupsRepeatsMatchReference(t *testing.T) {
	cs := loadCorpus(t, testkit.Shared(t, "corpora/large/PowerShell-Docs/reference/7.5/Microsoft.PowerShell.Management"))
	rng := rand.New(rand.NewPCG(11, 12))
	repeats := 0
	for range 50 {
		var texts []string
		for range 40 {
			x := cs[rng.IntN(len(cs))].text
			switch r := rng.IntN(4); {
			case len(texts) > 0 && r == 0:
				x = texts[rng.IntN(len(texts))] // an exact copy
				repeats++
			case len(texts) > 0 && r == 1:
				x = edit(rng, texts[rng.IntN(len(texts))])
			}
			texts = append(texts, x)
		}
		var g Groups
		var leaders []Sig
		for i, x := range texts {
			s := Of(x)
			want := len(leaders)
			for j, l := range leaders {
				if Near(l, s) {
					want = j
					break
				}
			}
			if want == len(leaders) {
				leaders = append(leaders, s)
			}
			if got := g.Add(x); got != want {
				t.Fatalf("text %d (%.60q): group %d, want %d", i, x, got, want)
			}
		}
	}
	if repeats == 0 {
		t.Fatal("no exact repeats were tried")
	}
}
