package neardup

import (
	"slices"
	"strings"

	"github.com/vaultctx/vaultctx/core/internal/textan"
)

// Width is the shingle width w: a shingle is a run of Width consecutive
// terms (textan.Terms) of a chunk text. See the package doc and NEARDUP.md
// for why 4.
const Width = 4

// Threshold is the least resemblance at which two chunk texts are
// near-duplicates (Near). Measured on the large corpus; see the package doc
// and NEARDUP.md.
const Threshold = 0.8

// FNV-1a 64 constants (Fowler, Noll, Vo), used for term and text hashes.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// Sig is what Near compares of one text: the hash of its normalised text
// (the fast path) and its set of shingle hashes. The zero Sig is the Sig of
// an empty text.
type Sig struct {
	exact    uint64
	shingles []uint64 // distinct, ascending
}

// Of returns the Sig of text. The text is normalised to its terms
// (textan.Terms: lowercased runs of letters and digits, so markdown
// punctuation, code punctuation and white space do not count); the exact
// hash is FNV-1a 64 of the terms joined by single spaces, or of the
// white-space-trimmed text when it has no term at all. The shingles are
// the hashes of every run of Width consecutive terms, or of all terms when
// there are fewer than Width.
func Of(text string) Sig {
	return of(text, Width)
}

func of(text string, w int) Sig {
	th := make([]uint64, 0, len(text)/6+1) // term hashes; a term and its separator average about 6 bytes
	exact := uint64(fnvOffset)
	for t := range textan.TermSeq(text) {
		if len(th) > 0 {
			exact = fnvByte(exact, ' ')
		}
		exact = fnvString(exact, t)
		th = append(th, fnvString(fnvOffset, t))
	}
	if len(th) == 0 {
		return Sig{exact: fnvString(fnvOffset, strings.TrimSpace(text))}
	}
	n := max(len(th)-w+1, 1)
	sh := make([]uint64, n)
	for i := range n {
		h := uint64(fnvOffset)
		for _, x := range th[i:min(i+w, len(th))] {
			h = mix(h ^ x)
		}
		sh[i] = h
	}
	slices.Sort(sh)
	return Sig{exact: exact, shingles: slices.Compact(sh)}
}

// Resemblance returns |S(a) ∩ S(b)| / |S(a) ∪ S(b)|, Broder's resemblance
// of the two shingle sets, in [0, 1]; 1 when the normalised texts are
// equal (the fast path), 0 when either has no shingle and they differ.
func Resemblance(a, b Sig) float64 {
	if a.exact == b.exact {
		return 1
	}
	inter := 0
	i, j := 0, 0
	for i < len(a.shingles) && j < len(b.shingles) {
		switch x, y := a.shingles[i], b.shingles[j]; {
		case x == y:
			inter++
			i++
			j++
		case x < y:
			i++
		default:
			j++
		}
	}
	union := len(a.shingles) + len(b.shingles) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// Near reports whether the texts behind a and b are near-duplicates: equal
// after normalisation, or of Resemblance at least Threshold. It returns the
// same answer as comparing Resemblance with Threshold, but stops early once
// the shingles not yet compared can no longer lift the resemblance to
// Threshold (and skips sets whose sizes alone rule it out).
func Near(a, b Sig) bool {
	if a.exact == b.exact {
		return true
	}
	na, nb := len(a.shingles), len(b.shingles)
	if na == 0 || nb == 0 {
		return false
	}
	need := minShared(na + nb)
	if min(na, nb) < need {
		return false
	}
	inter := 0
	i, j := 0, 0
	for i < na && j < nb {
		if inter+min(na-i, nb-j) < need {
			return false
		}
		switch x, y := a.shingles[i], b.shingles[j]; {
		case x == y:
			inter++
			i++
			j++
		case x < y:
			i++
		default:
			j++
		}
	}
	return inter >= need
}

// minShared returns the least intersection of two shingle sets of total
// size sum whose Resemblance (computed as Resemblance computes it) is at
// least Threshold.
func minShared(sum int) int {
	ok := func(inter int) bool { return float64(inter)/float64(sum-inter) >= Threshold }
	// r >= T  <=>  inter >= T*sum/(1+T); start there and correct for rounding.
	n := max(int(Threshold*float64(sum)/(1+Threshold)), 1)
	for n > 1 && ok(n-1) {
		n--
	}
	for n < sum && !ok(n) {
		n++
	}
	return n
}

// Groups sorts texts, in the order they are added (rank order), into
// groups of near-duplicates. The first text of a group is its leader; a
// later text joins the first group whose leader it is Near, or leads a new
// group. Leaders are therefore pairwise not Near, and each member is Near
// its leader; a text is compared with leaders only, never chained through
// other members. The zero value is an empty Groups, ready to use.
type Groups struct {
	leaders []Sig
	byText  map[string]int // every text added, by group
}

// Add files text and returns the number of its group: 0 for the first
// group, and Len()-1 when text leads a new one. Cost: one Of and at most
// one Resemblance per existing group, or one map lookup for a text equal,
// byte for byte, to one added before, which joins that text's group
// without its Sig: the group Near gives it too, since equal texts are Near
// the same leaders and the groups are tried in the same order.
func (g *Groups) Add(text string) int {
	if i, ok := g.byText[text]; ok {
		return i
	}
	if g.byText == nil {
		g.byText = map[string]int{}
	}
	s := Of(text)
	for i, l := range g.leaders {
		if Near(l, s) {
			g.byText[text] = i
			return i
		}
	}
	g.leaders = append(g.leaders, s)
	g.byText[text] = len(g.leaders) - 1
	return len(g.leaders) - 1
}

// Len returns the number of groups.
func (g *Groups) Len() int { return len(g.leaders) }

// mix is the finaliser of SplitMix64 (Steele, Lea, Flood 2014), so that a
// shingle hash depends on every bit of every term hash and on term order.
func mix(x uint64) uint64 {
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = fnvByte(h, s[i])
	}
	return h
}

func fnvByte(h uint64, b byte) uint64 {
	return (h ^ uint64(b)) * fnvPrime
}
