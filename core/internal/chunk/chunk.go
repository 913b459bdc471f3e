package chunk

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Chunk is one retrievable piece of a note.
type Chunk struct {
	// Section is the heading the chunk belongs to: the H1 or H2 text, or
	// the note title for text before the first heading. A section split at
	// H3 headings gets "H2 > H3". Headings longer than MaxHeadingRunes are
	// shortened at a word boundary and end in "…".
	Section string
	// Text is the chunk's markdown, without the H1/H2 (or splitting H3)
	// heading line, leading blank lines and trailing white space. At most
	// Options.MaxChars runes.
	Text string
	// Ordinal is the 0-based position of the chunk within its file, counted
	// after dropping short and skipped chunks.
	Ordinal int
}

// Options tunes Split. The zero value means no size limits and no skipped
// sections; use DefaultOptions for the product's settings.
type Options struct {
	// MaxChars is the largest chunk Text in runes (Unicode code points).
	// 0 or less means no limit.
	MaxChars int
	// MinChars drops chunks whose white-space-trimmed Text weighs less,
	// counting each rune by its script's weight (see Weight, rule 5).
	// Empty chunks are always dropped; rule 8 keeps a note whose chunks
	// were all dropped.
	MinChars int
	// SkipSections lists H2 section titles whose whole section is left out,
	// matched case-insensitively after normalisation (see rule 6).
	SkipSections []string
}

// RulesVersion names the rules in the package documentation. It changes
// whenever Split may return other chunks for the same input, so an index
// can tell that chunks it stored under older rules need re-chunking.
// Version 2 added rule 8 (the whole-note fallback) and the script weights
// of rule 5.
const RulesVersion = "2"

// Default sizes, in runes.
const (
	DefaultMaxChars = 2000
	DefaultMinChars = 30
	// MaxHeadingRunes is the longest heading used as a Section as is. A
	// longer heading is shortened for Section and its full line stays in Text.
	MaxHeadingRunes = 256
)

// DefaultOptions returns MaxChars 2000, MinChars 30 and SkipSections
// Related, See Also, Links, References and Related Links (the link-list
// section of every Microsoft reference page; left in, its cmdlet names
// would rank other pages above the one they name).
func DefaultOptions() Options {
	return Options{
		MaxChars:     DefaultMaxChars,
		MinChars:     DefaultMinChars,
		SkipSections: []string{"Related", "See Also", "Links", "References", "Related Links"},
	}
}

// section is a top-level part of a note: from one H1/H2 heading to the next.
type section struct {
	name       string
	start, end int // body byte range of the section's text
}

// Split cuts a note body into chunks following the rules in the package
// documentation. title is the section of text before the first heading.
// body should be LF-normalised text (see note.Decode); CR before LF is
// tolerated. Split never fails; the result is deterministic and may be
// empty (nil).
func Split(title, body string, opt Options) []Chunk {
	return split(title, body, opt, true)
}

// split is Split, with rule 8 only when fallback is set.
func split(title, body string, opt Options, fallback bool) []Chunk {
	sp := splitter{opt: opt, skip: normSkips(opt.SkipSections)}
	title, _ = shorten(strings.TrimSpace(title))

	cur := section{name: title}
	skipping := false
	seenH1 := false
	// kept are the body's byte ranges outside skipped sections, heading
	// lines included, merged where they touch (for rule 8).
	var kept [][2]int
	keep := func(lo, hi int) {
		if n := len(kept); n > 0 && kept[n-1][1] == lo {
			kept[n-1][1] = hi
		} else if hi > lo {
			kept = append(kept, [2]int{lo, hi})
		}
	}
	headStart := 0 // where the current section's heading line starts
	sc := newScanner(body)
	for {
		ev, ok := sc.next()
		if !ok {
			break
		}
		if ev.kind != kHeading || ev.level > 2 {
			continue
		}
		cur.end = ev.start
		if !skipping {
			sp.section(cur.name, body[cur.start:cur.end])
			keep(headStart, cur.end)
		}
		name, cut := shorten(ev.head)
		cur = section{name: name, start: ev.end}
		headStart = ev.start
		if cut {
			cur.start = ev.start
		}
		// Rule 6: skip H2 sections, and H1 sections after the first H1.
		skipping = (ev.level == 2 || seenH1) && sp.skipped(ev.head)
		if ev.level == 1 {
			seenH1 = true
		}
	}
	cur.end = len(body)
	if !skipping {
		sp.section(cur.name, body[cur.start:cur.end])
		keep(headStart, cur.end)
	}
	if len(sp.out) == 0 && fallback {
		// Rule 8: a note whose chunks were all dropped keeps its text
		// outside skipped sections, headings included, under its title.
		sp.noMin = true
		for _, k := range kept {
			sp.section(title, body[k[0]:k[1]])
		}
	}
	return sp.out
}

type splitter struct {
	opt  Options
	skip []string
	out  []Chunk
	// noMin turns rule 5 off (for rule 8's fallback).
	noMin bool
}

func (sp *splitter) fits(s string) bool {
	// A rune is 1 to 4 bytes, so only lengths in between need counting.
	max := sp.opt.MaxChars
	switch {
	case max <= 0 || len(s) <= max:
		return true
	case len(s) > 4*max:
		return false
	}
	return utf8.RuneCountInString(s) <= max
}

// emit adds one chunk unless it is empty or shorter than MinChars (rule 5).
func (sp *splitter) emit(name, text string) {
	text = trimChunk(text)
	if text == "" {
		return
	}
	if min := sp.opt.MinChars; min > 0 && !sp.noMin {
		// Every rune weighs at least 1 and takes at most 4 bytes, so a
		// text of 4*min bytes or more is long enough without counting.
		t := strings.TrimSpace(text)
		if len(t) < 4*min && weighed(t, min) < min {
			return
		}
	}
	sp.out = append(sp.out, Chunk{Section: name, Text: text, Ordinal: len(sp.out)})
}

// section emits one H1/H2 section, splitting it when it is too long: at
// H3 headings first (rule 4a), then by packing (rules 4b-4d).
func (sp *splitter) section(name, text string) {
	text = trimChunk(text)
	if text == "" {
		return
	}
	if sp.fits(text) {
		sp.emit(name, text)
		return
	}
	marks := lineMarks(text)
	partName, partStart := name, 0
	for _, m := range marks {
		if m.h3 == nil {
			continue
		}
		sp.pack(partName, text, marks, partStart, m.off, cutBlank)
		h3, cut := shorten(m.h3.head)
		partName, partStart = name+" > "+h3, m.h3.end
		if h3 == "" {
			partName = name
		}
		if cut {
			partStart = m.off
		}
	}
	sp.pack(partName, text, marks, partStart, len(text), cutBlank)
}

// mark is the start of a line and where it sits relative to code fences.
type mark struct {
	off   int
	blank bool
	fence bool   // the line is inside a fence (content or closing line)
	h3    *event // the H3 heading starting here, if any
}

// lineMarks scans a section once for its line starts and H3 headings.
func lineMarks(text string) []mark {
	ms := make([]mark, 0, strings.Count(text, "\n")+1)
	sc := newScanner(text)
	for {
		ev, ok := sc.next()
		if !ok {
			return ms
		}
		m := mark{
			off:   ev.line,
			blank: ev.kind == kBlank || ev.kind == kFenceBlank,
			fence: ev.kind == kFenced || ev.kind == kFenceBlank || ev.kind == kFenceClose,
		}
		if ev.kind == kHeading && ev.level == 3 {
			e := ev
			m.h3 = &e
		}
		ms = append(ms, m)
	}
}

// Cut levels, most preferred first.
const (
	cutBlank      = iota // blank line outside code fences
	cutLine              // line start outside code fences
	cutFenceBlank        // blank line inside a fence
	cutAnyLine           // any line start
	cutHard              // white space, else any rune boundary
)

func (m mark) allowed(level int) bool {
	switch level {
	case cutBlank:
		return m.blank && !m.fence
	case cutLine:
		return !m.fence
	case cutFenceBlank:
		return m.blank && m.fence
	default:
		return true
	}
}

// pack greedily fills chunks of at most MaxChars runes from text[lo:hi],
// cutting only at marks allowed at level. A stretch between two such cuts
// that is still too long is packed again at the next level.
func (sp *splitter) pack(name, text string, marks []mark, lo, hi, level int) {
	if level == cutHard {
		sp.hard(name, text[lo:hi])
		return
	}
	max := sp.opt.MaxChars
	start, end, count := lo, lo, 0
	// flushTo emits text[start:end] and starts a new piece end..b of n runes.
	flushTo := func(b, n int) {
		if end > start {
			sp.emit(name, text[start:end])
		}
		start, end, count = end, b, n
	}
	// First mark after lo (binary search: pack recurses once per oversized
	// stretch, so a linear scan here would be quadratic).
	i := sort.Search(len(marks), func(k int) bool { return marks[k].off > lo })
	for {
		b := hi
		for i < len(marks) && marks[i].off < hi {
			if marks[i].allowed(level) {
				b = marks[i].off
				i++
				break
			}
			i++
		}
		seg := utf8.RuneCountInString(text[end:b])
		switch {
		case count+seg <= max:
			end, count = b, count+seg
		case seg <= max:
			flushTo(b, seg)
		default:
			// The stretch end..b alone is too long: emit what we have, then
			// split the stretch at the next level.
			if end > start {
				sp.emit(name, text[start:end])
			}
			sp.pack(name, text, marks, end, b, level+1)
			start, end, count = b, b, 0
		}
		if b == hi {
			break
		}
	}
	if end > start {
		sp.emit(name, text[start:end])
	}
}

// hard splits text into pieces of at most MaxChars runes (rule 4d). The
// text is cut into as few pieces as possible, of about equal size (so no
// tiny tail falls under MinChars): each cut goes after the last white space
// in the second half of the window, else at the window's last rune.
func (sp *splitter) hard(name, text string) {
	max := sp.opt.MaxChars
	text = trimChunk(text)
	total := utf8.RuneCountInString(text)
	for text != "" {
		if total <= max {
			sp.emit(name, text)
			return
		}
		pieces := (total + max - 1) / max
		window := (total + pieces - 1) / pieces
		n, i, lastSpace := 0, 0, -1
		for i < len(text) && n < window {
			r, size := utf8.DecodeRuneInString(text[i:])
			i += size
			n++
			if n > window/2 && unicode.IsSpace(r) {
				lastSpace = i
			}
		}
		cut := i
		if next, _ := utf8.DecodeRuneInString(text[i:]); !unicode.IsSpace(next) && lastSpace > 0 {
			cut = lastSpace // else the window already ends at a word boundary
		}
		sp.emit(name, text[:cut])
		rest := strings.TrimLeftFunc(text[cut:], unicode.IsSpace)
		total -= utf8.RuneCountInString(text[:len(text)-len(rest)])
		text = rest
	}
}

// Script weights of rule 5, derived as runes per word of English notes over
// characters per word of the script, rounded down:
//   - English: 6.2 to 7.8 runes per word, counting the space after it
//     (measured on ../shared: obsidian 6.2, obsidian-tasks-docs 6.7,
//     flancia-garden 7.0, large 7.8; prose outside code fences);
//   - Chinese running text: 1.6 to 1.7 characters per word (DeFrancis 1943,
//     Zheng 1957, from the share of one-character words), so a Han
//     character carries the text of 6.2/1.7 to 7.8/1.6, 3.6 to 4.9 Latin
//     runes: weight 4, given to Japanese kana too, also written without
//     spaces;
//   - Korean: 2.7 to 2.8 syllables per word (eojeol) in school-textbook
//     counts (Kim 2012, 2014), plus the space: 6.2/3.8 to 7.8/3.7, 1.6 to
//     2.1: weight 2 per Hangul syllable.
//
// So the 30-rune minimum is about 5 English words, 8 Han characters or 15
// Hangul syllables.
const (
	weightHan    = 4
	weightHangul = 2
)

// Weight returns how many Latin runes r counts for in the minimum-size
// rule (rule 5): weightHan for Han, Hiragana and Katakana, weightHangul for
// Hangul, 1 otherwise.
func Weight(r rune) int {
	if r < 0x1100 {
		return 1
	}
	switch {
	case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
		return weightHan
	case unicode.Is(unicode.Hangul, r):
		return weightHangul
	}
	return 1
}

// weighed returns the summed Weight of the runes of s, stopping once it
// reaches limit.
func weighed(s string, limit int) int {
	n := 0
	for _, r := range s {
		n += Weight(r)
		if n >= limit {
			break
		}
	}
	return n
}

// trimChunk drops leading blank lines and trailing white space, keeping the
// indentation of the first non-blank line.
func trimChunk(s string) string {
	s = strings.TrimRight(s, " \t\r\n\f\v")
	i := 0
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\r', '\f', '\v':
			i++
			continue
		case '\n':
			s = s[i+1:]
			i = 0
			continue
		}
		break
	}
	return s
}

// shorten returns h, or a prefix of at most MaxHeadingRunes runes cut at a
// word boundary and ending in "…", and whether it was shortened.
func shorten(h string) (string, bool) {
	if utf8.RuneCountInString(h) <= MaxHeadingRunes {
		return h, false
	}
	n, cut, lastSpace := 0, 0, -1
	for i, r := range h {
		if n == MaxHeadingRunes-1 {
			cut = i
			break
		}
		if r == ' ' && n >= MaxHeadingRunes/2 {
			lastSpace = i
		}
		n++
	}
	if lastSpace > 0 {
		cut = lastSpace
	}
	return strings.TrimRight(h[:cut], " \t") + "…", true
}

// normSkips normalises the skip list once per Split.
func normSkips(list []string) []string {
	out := make([]string, 0, len(list))
	for _, s := range list {
		if n := normHeading(s); n != "" {
			out = append(out, n)
		}
	}
	return out
}

func (sp *splitter) skipped(heading string) bool {
	if len(sp.skip) == 0 {
		return false
	}
	n := normHeading(heading)
	for _, s := range sp.skip {
		if n == s {
			return true
		}
	}
	return false
}

// normHeading lower-cases a heading, drops everything before its first
// letter and after its last letter or digit (emoji, numbering, markup such
// as "**", "[[", trailing ':'), and collapses inner white space.
func normHeading(h string) string {
	h = strings.TrimLeftFunc(h, func(r rune) bool { return !unicode.IsLetter(r) })
	h = strings.TrimRightFunc(h, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return strings.ToLower(strings.Join(strings.Fields(h), " "))
}
