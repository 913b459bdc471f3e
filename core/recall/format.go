package recall

import (
	"strings"
	"unicode/utf8"

	"github.com/vaultctx/vaultctx/core/internal/textan"
	"github.com/vaultctx/vaultctx/core/retrieve"
)

// ContextHeading is the first line of every context block.
const ContextHeading = "## Relevant Memory Context"

// minHitText is the fewest characters of chunk text worth showing; a hit
// that cannot fit its heading, path and this much text is left out.
const minHitText = 40

// alsoShare is the part of a hit's room its "also in" line may fill with
// paths: a quarter, so the chunk text keeps most of the budget.
const alsoShare = 4

// Hit is one retrieved chunk to show in a context block. Path is the
// note's path as shown: the hooks give the absolute path of the file on
// disk (see Prompt), tests may give any. Section the chunk's heading (may be empty), Title the
// note's title, Text the chunk body; ChunkID identifies the chunk for
// session de-duplication. Also holds the near-duplicates Collapse folded
// into this hit (the same or nearly the same text in other chunks), in
// rank order; FormatContext names them instead of showing them.
type Hit struct {
	Path    string
	Section string
	Title   string
	Text    string
	ChunkID int64
	Also    []Hit
}

// FormatContext renders hits, in the given order, as a markdown context
// block of at most textan.CharBudget(budgetTokens) characters (runes):
//
//	## Relevant Memory Context
//
//	### <section> (<note title>)
//	<path: absolute, the file's on-disk name>
//	also in <N> notes: <path>, <path>, …
//	<chunk text, trimmed to fit>
//
// A hit without a section shows only the title and vice versa. The "also
// in" line appears for a hit with near-duplicates (Hit.Also, see Collapse):
// it counts the other notes and names their paths while the line stays
// within a quarter of the room left for the hit ("…" for the rest), then
// the sections of copies in the hit's own note ("also in this note: §
// OUTPUTS"). Chunk text that does not fit is cut at the last line break or
// space before the limit and marked with "…"; a hit that cannot show at
// least a few dozen characters of text is skipped, and later (shorter)
// hits still get their chance. It returns the block and the hits it shows,
// in order, as given (their Text not trimmed), each followed by the hits of
// its Also, whose text the block carries in near-identical form: a caller
// that records every returned hit as shown records exactly what the block
// holds. The output is a pure function of its arguments. It returns "" and
// no hits when budgetTokens <= 0 or no hit fits.
func FormatContext(hits []Hit, budgetTokens int) (block string, shown []Hit) {
	budget := textan.CharBudget(budgetTokens)
	if budget <= 0 {
		return "", nil
	}
	var b strings.Builder
	used := utf8.RuneCountInString(ContextHeading) + 1 // heading and its newline
	n := 0
	for _, h := range hits {
		head := hitHeading(h)
		path := oneLineText(h.Path)
		text := strings.TrimSpace(h.Text)
		if text == "" {
			continue
		}
		// "\n" (blank separator) + head + "\n" + path + "\n" + [also + "\n"] + text + "\n"
		fixed := 1 + utf8.RuneCountInString(head) + 1 + utf8.RuneCountInString(path) + 1 + 1
		room := budget - used - fixed
		also := alsoLine(h, room/alsoShare)
		if also != "" {
			fixed += utf8.RuneCountInString(also) + 1
			room = budget - used - fixed
		}
		if room < minHitText && room < utf8.RuneCountInString(text) || room <= 0 {
			continue
		}
		text = retrieve.TrimText(text, room)
		if n == 0 {
			b.WriteString(ContextHeading)
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
		b.WriteString(head)
		b.WriteByte('\n')
		b.WriteString(path)
		b.WriteByte('\n')
		if also != "" {
			b.WriteString(also)
			b.WriteByte('\n')
		}
		b.WriteString(text)
		b.WriteByte('\n')
		used += fixed + utf8.RuneCountInString(text)
		n++
		shown = append(append(shown, h), h.Also...)
	}
	return b.String(), shown
}

// hitHeading returns "### section (title)", or whichever part exists.
func hitHeading(h Hit) string {
	section, title := oneLineText(h.Section), oneLineText(h.Title)
	switch {
	case section != "" && title != "" && section != title:
		return "### " + section + " (" + title + ")"
	case section != "":
		return "### " + section
	case title != "":
		return "### " + title
	default:
		return "### " + oneLineText(h.Path)
	}
}

// oneLineText collapses runs of whitespace (including newlines) to one space.
func oneLineText(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
