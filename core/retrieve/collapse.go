package retrieve

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vaultctx/vaultctx/core/internal/neardup"
)

// Collapse returns hits with every near-duplicate folded into the first
// hit of its group: hits keep their order, and a hit whose Text is a
// near-duplicate (neardup.Near: Broder resemblance of 4-term shingles of at
// least 0.8, see core/internal/neardup) of an earlier kept hit is moved to
// that hit's AlsoIn, after the ones already there (a folded hit's own
// AlsoIn comes along, flattened). Kept hits are therefore pairwise not
// near-duplicates, and collapsing the result again changes nothing. hits is
// not modified; an empty input gives nil.
func Collapse(hits []Hit) []Hit {
	var c collapser
	for _, h := range hits {
		c.add(h)
	}
	return c.out
}

// collapser is Collapse one hit at a time, for Search's rounds.
type collapser struct {
	groups neardup.Groups
	out    []Hit
}

func (c *collapser) add(h Hit) {
	n := c.groups.Add(h.Text)
	if n == len(c.out) {
		h.AlsoIn = slices.Clone(h.AlsoIn)
		c.out = append(c.out, h)
		return
	}
	also := h.AlsoIn
	h.AlsoIn = nil
	c.out[n].AlsoIn = append(append(c.out[n].AlsoIn, h), also...)
}

// fill hydrates fused results from next on, in rank order, and adds them
// to c until it holds k groups or fused runs out: first k·copies results
// (copies, at least 1, the index's mean chunks per distinct text: k groups
// of that size), then, while groups are missing, twice as many results per
// missing group. A list without near-duplicates costs one Hydrate, as
// without Collapse. It returns the index of the first fused result not
// hydrated. The first k groups and their order do not depend on copies;
// a larger one may fold more copies into them.
func (c *collapser) fill(ctx context.Context, src Source, fused []Fused, next, k int, copies float64) (int, error) {
	if !(copies >= 1) { // below 1, NaN: no copies known
		copies = 1
	}
	want := int(math.Ceil(float64(k-len(c.out)) * copies))
	if next == 0 {
		want = int(math.Ceil(float64(k) * copies))
	}
	for len(c.out) < k && next < len(fused) {
		end := min(next+want, len(fused))
		ids := make([]int64, 0, end-next)
		for _, f := range fused[next:end] {
			ids = append(ids, f.ID)
		}
		hits, err := src.Hydrate(ctx, ids)
		if err != nil {
			return next, err
		}
		for _, h := range hits {
			c.add(h)
		}
		next, want = end, int(math.Ceil(2*float64(k-len(c.out))*copies))
	}
	return next, nil
}

// ListItem is p written as one item of a ", "-separated list ("also in 2
// notes: a.md, b.md"): as is, or between backquotes when it holds ", " or
// a backquote, or begins or ends with a space, so that a note named
// "descaling, espresso, copy.md" reads as one name.
func ListItem(p string) string {
	if !strings.Contains(p, ", ") && !strings.Contains(p, "`") && strings.TrimSpace(p) == p {
		return p
	}
	return "`" + strings.ReplaceAll(p, "`", "``") + "`"
}

// ShowablePath reports whether path can be written on one line exactly as
// the file is named on disk: valid UTF-8 with no control character
// (newline, tab, ...), no line or paragraph separator (U+2028, U+2029)
// and no U+FFFD, which the vault walk writes for each byte of a name that
// is not UTF-8 (core/vault), so that a path holding it may name no file.
// A context block leaves out the hits of other names, and the CLI quotes
// them (QuotePath).
func ShowablePath(path string) bool {
	if !utf8.ValidString(path) {
		return false
	}
	for _, r := range path {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// QuotePath returns path as it is when ShowablePath, else as a Go string
// literal ("a\nb.md", "caf\xe9.md", and "caf\ufffd.md" for the U+FFFD
// the vault walk wrote for a byte that is not UTF-8): one line that tells
// the name's bytes, or where one was not readable.
func QuotePath(path string) string {
	if ShowablePath(path) {
		return path
	}
	return strings.ReplaceAll(strconv.Quote(path), "\uFFFD", `\ufffd`)
}
