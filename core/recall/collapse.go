package recall

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/vaultctx/vaultctx/core/internal/neardup"
	"github.com/vaultctx/vaultctx/core/retrieve"
)

// Collapse folds near-duplicate hits into the first hit of their group,
// before FormatContext spends the budget: hits keep their order, and a hit
// whose Text is a near-duplicate of an earlier kept hit's (neardup.Near:
// Broder resemblance of 4-term shingles of at least 0.8; see
// core/internal/neardup/NEARDUP.md) moves to that hit's Also, flattened.
// Kept hits are pairwise not near-duplicates. hits is not modified.
func Collapse(hits []Hit) []Hit {
	var groups neardup.Groups
	var out []Hit
	for _, h := range hits {
		n := groups.Add(h.Text)
		if n == len(out) {
			h.Also = slices.Clone(h.Also)
			out = append(out, h)
			continue
		}
		also := h.Also
		h.Also = nil
		out[n].Also = append(append(out[n].Also, h), also...)
	}
	return out
}

// alsoLine is the line under a hit's path that names where else its text
// is (h.Also): "also in 3 notes: a.md, b.md, c.md", and for copies in the
// hit's own note "also in this note: § OUTPUTS". Paths and sections are
// named while the line stays within limit runes, then "…" stands for the
// rest; the count is always there. "" when h has no copies.
func alsoLine(h Hit, limit int) string {
	var notes, sections []string
	for _, d := range h.Also {
		switch p := d.Path; {
		case p != h.Path && !slices.Contains(notes, retrieve.ListItem(p)):
			notes = append(notes, retrieve.ListItem(p))
		case p == h.Path && !slices.Contains(sections, "§ "+oneLineText(d.Section)):
			sections = append(sections, "§ "+oneLineText(d.Section))
		}
	}
	if len(notes)+len(sections) == 0 {
		return ""
	}
	var heads []string
	var items [][]string
	if len(notes) > 0 {
		s := "s"
		if len(notes) == 1 {
			s = ""
		}
		heads = append(heads, fmt.Sprintf("also in %d note%s", len(notes), s))
		items = append(items, notes)
	}
	if len(sections) > 0 {
		heads = append(heads, "also in this note")
		items = append(items, sections)
	}
	// Fit whole items, in order, into limit; the heads always show.
	var b strings.Builder
	for i, head := range heads {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(head)
		for j, it := range items[i] {
			sep := ": "
			if j > 0 {
				sep = ", "
			}
			rest := utf8.RuneCountInString(sep) + utf8.RuneCountInString(it)
			if utf8.RuneCountInString(b.String())+rest > limit {
				if j > 0 {
					b.WriteString(", …")
				}
				break
			}
			b.WriteString(sep)
			b.WriteString(it)
		}
	}
	return b.String()
}
