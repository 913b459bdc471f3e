package recall

import (
	"slices"
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

// MaxListed is how many further notes a context block names by path after
// the hits it shows with text (see FormatContext). The acceptable note of
// a question is often not the first hit: on the prompt set of FLOOR.md
// (large corpus), of the answerable prompts whose acceptable note is in
// the top 10, it ranks first for 40 of 67 and 2nd-4th for 18, while a
// 500-token block has room for the text of one to three hits. Naming the
// next few costs a line each (about 25 tokens) and lets the agent open
// them.
const MaxListed = 3

// ListHeading opens the list of the notes a block names without text.
const ListHeading = "More notes that match:"

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
	// Listed marks a hit FormatContext returns that the block names in
	// its list (ListHeading) without its text: a caller recording what the
	// agent has seen leaves it out, so a later block may show its text.
	Listed bool
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
// hits still get their chance.
//
// After the hits with text, the block names up to MaxListed further hits
// of other notes, in order, one line each under ListHeading:
//
//	More notes that match:
//	- <path> § <section> (<note title>)
//
// Room for those lines is kept from the start (the text of the first hits
// is trimmed to leave it), so a long first hit cannot crowd them out.
//
// It returns the block and the hits it shows, in order, as given (their
// Text not trimmed), each followed by the hits of its Also, whose text the
// block carries in near-identical form, then the listed hits with Listed
// set: a caller that records every returned hit without Listed as shown
// records exactly the texts the block holds. The output is a pure function
// of its arguments. It returns "" and no hits when budgetTokens <= 0 or no
// hit fits.
func FormatContext(hits []Hit, budgetTokens int) (block string, shown []Hit) {
	budget := textan.CharBudget(budgetTokens)
	if budget <= 0 {
		return "", nil
	}
	hits = withShowablePaths(hits)
	var b strings.Builder
	used := utf8.RuneCountInString(ContextHeading) + 1 // heading and its newline
	// The room the list may need: the list lines of the next MaxListed
	// notes after the first hit, and the list's heading.
	reserve := 0
	if len(hits) > 1 {
		seenPath := map[string]bool{hits[0].Path: true}
		k := 0
		for _, h := range hits[1:] {
			if k == MaxListed {
				break
			}
			if seenPath[h.Path] || strings.TrimSpace(h.Text) == "" {
				continue
			}
			seenPath[h.Path] = true
			reserve += utf8.RuneCountInString(listLine(h)) + 1
			k++
		}
		if k > 0 {
			reserve += 1 + utf8.RuneCountInString(ListHeading) + 1
		}
	}
	textBudget := budget - reserve
	if textBudget-used < minHitText+len(ContextHeading) {
		textBudget, reserve = budget, 0 // too small for a list: text only
	}
	n := 0
	inBlock := map[string]bool{}
	for _, h := range hits {
		head := hitHeading(h)
		path := h.Path // verbatim: withShowablePaths kept only one-line paths
		text := strings.TrimSpace(h.Text)
		if text == "" {
			continue
		}
		// "\n" (blank separator) + head + "\n" + path + "\n" + [also + "\n"] + text + "\n"
		fixed := 1 + utf8.RuneCountInString(head) + 1 + utf8.RuneCountInString(path) + 1 + 1
		room := textBudget - used - fixed
		also := alsoLine(h, room/alsoShare)
		if also != "" {
			fixed += utf8.RuneCountInString(also) + 1
			room = textBudget - used - fixed
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
		inBlock[h.Path] = true
		for _, a := range h.Also {
			inBlock[a.Path] = true
		}
	}
	if n == 0 {
		return "", nil
	}
	// The list: further notes, each named once, while they fit.
	listed := 0
	for _, h := range hits {
		if listed == MaxListed {
			break
		}
		if inBlock[h.Path] || strings.TrimSpace(h.Text) == "" {
			continue
		}
		line := listLine(h)
		cost := utf8.RuneCountInString(line) + 1
		if listed == 0 {
			cost += 1 + utf8.RuneCountInString(ListHeading) + 1
		}
		if used+cost > budget {
			continue
		}
		if listed == 0 {
			b.WriteByte('\n')
			b.WriteString(ListHeading)
			b.WriteByte('\n')
		}
		b.WriteString(line)
		b.WriteByte('\n')
		used += cost
		listed++
		inBlock[h.Path] = true
		l := h
		l.Listed = true
		shown = append(shown, l)
	}
	return b.String(), shown
}

// listLine is a hit's line in the list of a block: "- <path> § <section>
// (<title>)", or whichever of section and title exists.
func listLine(h Hit) string {
	line := "- " + h.Path
	if head := strings.TrimPrefix(hitHeading(h), "### "); head != h.Path {
		line += " § " + head
	}
	return line
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
		return "### " + h.Path
	}
}

// withShowablePaths returns hits without the paths that cannot be shown as
// they are (retrieve.ShowablePath: any other rendering of such a name
// would name a file that does not exist): such copies leave their hit's
// Also, and such a hit gives its place to its first copy that can be
// named, or leaves with its group when none can. hits is not modified.
func withShowablePaths(hits []Hit) []Hit {
	ok := func(h Hit) bool { return retrieve.ShowablePath(h.Path) }
	if !slices.ContainsFunc(hits, func(h Hit) bool { return !ok(h) || slices.ContainsFunc(h.Also, func(a Hit) bool { return !ok(a) }) }) {
		return hits
	}
	var out []Hit
	for _, h := range hits {
		also := slices.DeleteFunc(slices.Clone(h.Also), func(a Hit) bool { return !ok(a) })
		if !ok(h) {
			if len(also) == 0 {
				continue
			}
			h, also = also[0], also[1:] // the first copy that can be named stands for the group
		}
		h.Also = also
		out = append(out, h)
	}
	return out
}

// oneLineText collapses runs of whitespace (including newlines) to one space.
func oneLineText(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
