package compress

import (
	"slices"
	"strconv"
	"strings"

	"github.com/vaultctx/vaultctx/core/internal/textan"
)

// Segment kinds of a content output (see contentSegments).
const (
	segMeta = iota // a line always shown when anything after it is: a diff's file or hunk header, a commit header, a preamble line
	segBody        // the body lines of one diff hunk, or a file's lines: shown whole or replaced by one marker
)

// segment is a run of lines of a content output, shown whole or not at all.
type segment struct {
	first, last int // 0-based line indices, inclusive
	kind        int
	cost        int // bytes of its shown lines, newlines included
}

// diffSegments cuts a diff into meta lines and hunk bodies, one segment
// per meta line and one per body. A hunk's body is bounded by the line
// counts of its "@@ -a,b +c,d @@" header (so a removed line that reads
// "--- x" stays in its hunk), or, when they do not add up, by the next line
// that cannot be a body line: in a --word-diff (isWordDiff), whose body
// lines have no prefix, the next file, hunk or commit header.
func diffSegments(lines []string) []segment {
	var segs []segment
	wordDiff := isWordDiff(lines)
	addMeta := func(i int) { segs = append(segs, segment{first: i, last: i, kind: segMeta, cost: len(lines[i]) + 1}) }
	for i := 0; i < len(lines); {
		l := lines[i]
		if !strings.HasPrefix(l, "@@") {
			addMeta(i)
			i++
			continue
		}
		addMeta(i)
		oldN, newN, ok := hunkCounts(l)
		j := i + 1
		for j < len(lines) {
			b := lines[j]
			if ok {
				if oldN <= 0 && newN <= 0 {
					if strings.HasPrefix(b, `\`) { // "\ No newline at end of file"
						j++
					}
					break
				}
				switch {
				case strings.HasPrefix(b, "+"):
					newN--
				case strings.HasPrefix(b, "-"):
					oldN--
				case strings.HasPrefix(b, " ") || b == "":
					oldN--
					newN--
				case strings.HasPrefix(b, `\`):
				default:
					ok = false // the counts do not hold: fall back to the line shapes
					continue
				}
				j++
				continue
			}
			if b == "" || strings.ContainsRune(" +-\\", rune(b[0])) && !strings.HasPrefix(b, "--- ") && !strings.HasPrefix(b, "+++ ") {
				j++
				continue
			}
			if wordDiff && !isDiffHeader(b) && !isCommitHeader(b) {
				j++ // --word-diff: "text [-old-]{+new+} text", no prefix
				continue
			}
			break
		}
		if j > i+1 {
			cost := 0
			for _, b := range lines[i+1 : j] {
				cost += len(b) + 1
			}
			segs = append(segs, segment{first: i + 1, last: j - 1, kind: segBody, cost: cost})
		}
		i = j
	}
	return segs
}

// hunkCounts parses the old and new line counts of a unified diff hunk
// header ("@@ -12,7 +12,9 @@ func f()"; a missing count is 1).
func hunkCounts(h string) (oldN, newN int, ok bool) {
	f := strings.Fields(h)
	if len(f) < 3 || f[0] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, false
	}
	count := func(r string) (int, bool) {
		_, c, found := strings.Cut(r[1:], ",")
		if !found {
			return 1, true
		}
		n, err := strconv.Atoi(c)
		return n, err == nil
	}
	o, ok1 := count(f[1])
	n, ok2 := count(f[2])
	return o, n, ok1 && ok2
}

// cutContent renders a content output's stdout lines within budget bytes
// (markers included), cut only between segments. lines are the output's
// lines as a terminal showed them. hint(x, y) names the command that reads
// output lines x to y (1-based). It returns the text and the lines shown.
//
// A diff keeps every meta line (file headers, hunk headers, commit
// headers) when they fit, and then hunk bodies whole, in order, skipping a
// body that does not fit; each body left out is one marker line. When even
// the meta lines do not fit, the diff is shown from its start, whole
// segments while they fit, and one marker names the rest. A file is shown
// from its start up to the budget, cut after a blank line where one falls
// in the last third, and one marker names the rest.
func cutContent(lines []string, kind contentKind, budget int, hint func(x, y int) string, pattern string) (string, int) {
	var segs []segment
	switch kind {
	case contentDiff:
		segs = diffSegments(lines)
	case contentClassicDiff:
		segs = classicDiffSegments(lines)
	default:
		segs = fileSegments(lines, budget, hint)
	}
	// Markers name the command that reads what they stand for. When a
	// marker per hunk body would crowd out the headers, they are short
	// ("[… 34 lines omitted (88–121) …]") under one line that says how to
	// read any range (pattern, with A and B for its first and last line).
	short := false
	preface := "[… an omitted range A–B is read with: " + pattern + " …]\n"
	bodyMarker := func(s segment) string {
		if short {
			return "[… " + plural(s.last-s.first+1, "line") + " omitted (" + itoa(s.first+1) + "–" + itoa(s.last+1) + ") …]"
		}
		return "[… " + plural(s.last-s.first+1, "line") + " omitted (" + itoa(s.first+1) + "–" + itoa(s.last+1) + "); read them: " + hint(s.first+1, s.last+1) + " …]"
	}
	restMarker := func(from int) string {
		return "[… lines " + itoa(from+1) + "–" + itoa(len(lines)) + " omitted (" + plural(len(lines)-from, "line") + "); read them: " + hint(from+1, len(lines)) + " …]"
	}
	show := make([]int8, len(segs)) // 0 hidden, 1 shown, 2 a marker stands for it
	used := 0
	for attempt := range 2 {
		short = attempt == 1
		used = 0
		if short {
			used = len(preface)
		}
		for k, s := range segs {
			if s.kind == segMeta {
				show[k] = 1
				used += s.cost
			} else {
				show[k] = 2
				used += len(bodyMarker(s)) + 1
			}
		}
		if used <= budget {
			break
		}
	}
	withPreface := func(out string, kept int) (string, int) {
		if short {
			return preface + out, kept
		}
		return out, kept
	}
	if used <= budget {
		// Bodies from both ends inward (first, last, second, second to
		// last …), each whole or not at all: the start and the end of a
		// change set are both seen.
		var bodies []int
		for k, s := range segs {
			if s.kind == segBody {
				bodies = append(bodies, k)
			}
		}
		for lo, hi, turn := 0, len(bodies)-1, 0; lo <= hi; turn++ {
			k := bodies[lo]
			if turn%2 == 1 {
				k = bodies[hi]
				hi--
			} else {
				lo++
			}
			s := segs[k]
			if extra := s.cost - len(bodyMarker(s)) - 1; used+extra <= budget {
				show[k] = 1
				used += extra
			}
		}
		if len(bodies) > 0 && !slices.ContainsFunc(bodies, func(k int) bool { return show[k] == 1 }) {
			segs, show = splitFirstBody(segs, show, bodies[0], lines, budget-used, bodyMarker)
		}
		return withPreface(renderSegments(lines, segs, show, "", bodyMarker))
	}
	// The structure alone is too large: a prefix of whole segments, then
	// an index of the files in the rest. The prefix takes at most 60% of
	// the budget when there are files to index.
	clear(show)
	used = len(preface) // short markers (short is true here)
	prefixBudget := budget
	if kind == contentDiff || kind == contentClassicDiff {
		prefixBudget = budget * 6 / 10
	}
	for k, s := range segs {
		rest := len(restMarker(s.first)) + 1
		switch {
		case used+s.cost+rest <= prefixBudget:
			show[k] = 1
			used += s.cost
		case s.kind == segBody && used+len(bodyMarker(s))+1+rest <= prefixBudget:
			show[k] = 2
			used += len(bodyMarker(s)) + 1
		default:
			// End the prefix before the headers of a file or hunk whose
			// body is not shown.
			for k > 0 && segs[k-1].kind == segMeta && (isDiffHeader(lines[segs[k-1].first]) || kind == contentClassicDiff && isClassicDiffMeta(lines[segs[k-1].first])) {
				k--
				used -= segs[k].cost
			}
			out, kept := withPreface(renderSegments(lines, segs[:k], show[:k], "", bodyMarker))
			from := len(lines)
			if k < len(segs) {
				from = segs[k].first
			}
			return out + fileIndex(lines, from, budget-used, kind, restMarker), kept
		}
	}
	return withPreface(renderSegments(lines, segs, show, "", bodyMarker))
}

// isWordDiff reports whether a diff was printed with --word-diff (plain):
// of its first 2,000 lines one holds a "[-…-]" or "{+…+}" mark, so body
// lines need no "+", "-" or " " prefix.
func isWordDiff(lines []string) bool {
	for _, l := range lines[:min(len(lines), 2000)] {
		if i := strings.Index(l, "[-"); i >= 0 && strings.Contains(l[i:], "-]") || strings.Contains(l, "{+") && strings.Contains(l, "+}") {
			return true
		}
	}
	return false
}

// isCommitHeader reports whether a line of git log -p heads a commit:
// "commit <sha>", "Author:", "Date:", "Merge:".
func isCommitHeader(l string) bool {
	return strings.HasPrefix(l, "commit ") || strings.HasPrefix(l, "Author: ") || strings.HasPrefix(l, "Date: ") || strings.HasPrefix(l, "Merge: ")
}

// isDiffHeader reports whether a diff line heads a file or a hunk.
func isDiffHeader(l string) bool {
	for _, p := range []string{"diff ", "index ", "--- ", "+++ ", "@@", "new file mode", "deleted file mode", "old mode", "new mode",
		"similarity index", "dissimilarity index", "rename from", "rename to", "copy from", "copy to", "Binary files"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// fileIndex is what stands for the lines from index from on when a diff is
// cut there: one marker naming them and how to read them, then the
// "diff --git" line of each file among them (verbatim, as many as fit in
// room bytes), so the agent knows which files the cut part changes. A
// file's diff is read with the marker's command or, for git, by adding
// "-- PATH" to the command.
func fileIndex(lines []string, from, room int, kind contentKind, restMarker func(int) string) string {
	var heads []string
	for _, l := range lines[from:] {
		if kind == contentDiff && strings.HasPrefix(l, "diff --git ") || kind == contentClassicDiff && strings.HasPrefix(l, "diff ") {
			heads = append(heads, l)
		}
	}
	marker := restMarker(from)
	if len(heads) == 0 {
		return marker + "\n"
	}
	room -= len(marker) + 1 + len(" …]") + 40
	n, used := 0, 0
	for _, h := range heads {
		if used+len(h)+1 > room {
			break
		}
		used += len(h) + 1
		n++
	}
	what := "; they change the " + plural(len(heads), "file") + " whose headers follow"
	if n < len(heads) {
		what = "; they change " + plural(len(heads), "file") + ", the first " + itoa(n) + " named below"
	}
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(marker, " …]") + what + " …]\n")
	for _, h := range heads[:n] {
		b.WriteString(h)
		b.WriteByte('\n')
	}
	return b.String()
}

// classicDiffSegments cuts diff(1)'s normal or context output into meta
// lines (isClassicDiffMeta: file and hunk headers), one segment each, and
// bodies, each run of other lines between them.
func classicDiffSegments(lines []string) []segment {
	var segs []segment
	for i := 0; i < len(lines); {
		if isClassicDiffMeta(lines[i]) {
			segs = append(segs, segment{first: i, last: i, kind: segMeta, cost: len(lines[i]) + 1})
			i++
			continue
		}
		j, cost := i, 0
		for j < len(lines) && !isClassicDiffMeta(lines[j]) {
			cost += len(lines[j]) + 1
			j++
		}
		segs = append(segs, segment{first: i, last: j - 1, kind: segBody, cost: cost})
		i = j
	}
	return segs
}

// fileSegments makes a file's lines into segments for cutContent: a head
// (about three quarters of the budget) and a tail (the rest) as meta
// lines, each cut at a blank line where one falls near its edge, and the
// lines between as one body, so both ends of the file are seen.
func fileSegments(lines []string, budget int, hint func(x, y int) string) []segment {
	total := 0
	for _, l := range lines {
		total += len(l) + 1
	}
	meta := func(segs []segment, from, to int) []segment {
		for i := from; i < to; i++ {
			segs = append(segs, segment{first: i, last: i, kind: segMeta, cost: len(lines[i]) + 1})
		}
		return segs
	}
	if total <= budget {
		return meta(nil, 0, len(lines))
	}
	room := budget - (len("[… 1234567 lines omitted (1234567–1234567); read them:  …]") + len(hint(1234567, 1234567)) + 1)
	headRoom := room * 3 / 4
	used, h := 0, 0
	for h < len(lines) && used+len(lines[h])+1 <= headRoom {
		used += len(lines[h]) + 1
		h++
	}
	for b := h - 1; b >= h*2/3 && b > 0; b-- {
		if strings.TrimSpace(lines[b]) == "" {
			h = b + 1
			break
		}
	}
	used = 0
	for i := range h {
		used += len(lines[i]) + 1
	}
	t := len(lines) // the tail is lines[t:]
	for t > h && used+len(lines[t-1])+1 <= room {
		used += len(lines[t-1]) + 1
		t--
	}
	for b := t; b < len(lines) && b < t+(len(lines)-t)/3; b++ {
		if strings.TrimSpace(lines[b]) == "" {
			t = b
			break
		}
	}
	segs := meta(nil, 0, h)
	if t > h {
		cost := 0
		for _, l := range lines[h:t] {
			cost += len(l) + 1
		}
		segs = append(segs, segment{first: h, last: t - 1, kind: segBody, cost: cost})
	}
	return meta(segs, t, len(lines))
}

// renderSegments writes the shown segments, a marker for each one a
// marker stands for, and then rest (a marker line, or ""). It returns the
// text and the number of output lines shown.
func renderSegments(lines []string, segs []segment, show []int8, rest string, bodyMarker func(segment) string) (string, int) {
	var b strings.Builder
	kept := 0
	for k, s := range segs {
		switch show[k] {
		case 1:
			for _, l := range lines[s.first : s.last+1] {
				b.WriteString(l)
				b.WriteByte('\n')
			}
			kept += s.last - s.first + 1
		case 2:
			b.WriteString(bodyMarker(s))
			b.WriteByte('\n')
		}
	}
	if rest != "" {
		b.WriteString(rest)
		b.WriteByte('\n')
	}
	return b.String(), kept
}

// splitFirstBody is cutContent's way out when no hunk body fits whole (a
// new file's one hunk of 1,400 lines): body k is split into its head, as
// many whole lines as room (bytes, beyond its marker already counted)
// allows, shown as one region, and the rest, named by a marker. The head
// is a run of the hunk from its first line, never a pick of lines. segs
// and show are returned unchanged when not even one line fits.
func splitFirstBody(segs []segment, show []int8, k int, lines []string, room int, bodyMarker func(segment) string) ([]segment, []int8) {
	s := segs[k]
	room += len(bodyMarker(s)) + 1 // the marker the whole body had is given back
	cost, last := 0, s.first-1
	for i := s.first; i < s.last; i++ { // at least one line stays for the marker
		rest := segment{first: i + 1, last: s.last, kind: segBody}
		if cost+len(lines[i])+1+len(bodyMarker(rest))+1 > room {
			break
		}
		cost += len(lines[i]) + 1
		last = i
	}
	if last < s.first {
		return segs, show
	}
	head := segment{first: s.first, last: last, kind: segBody, cost: cost}
	tail := segment{first: last + 1, last: s.last, kind: segBody, cost: s.cost - cost}
	segs = slices.Insert(slices.Clone(segs), k+1, tail)
	segs[k] = head
	show = slices.Insert(slices.Clone(show), k+1, int8(2))
	show[k] = 1
	return segs, show
}

// maxContentLine is the longest line of a content output shown whole; a
// longer one (minified JSON, an embedded blob) is shown as a cut marker
// quoting its head (cutLine).
const maxContentLine = 4000

// condenseContent is Condense for a content output (see contentOf): the
// header, stdout cut between segments (cutContent) and stderr's head, all
// within the budget and scrubbed.
func condenseContent(req Request, src contentSource, opts Options, savedPath string) Extract {
	raw := strings.Split(strings.TrimSuffix(req.Stdout, "\n"), "\n")
	hint := contentHint(req, src, savedPath)
	shown := contentLines(raw, hint)
	var errLines []string
	if req.Stderr != "" {
		errLines = strings.Split(strings.TrimSuffix(req.Stderr, "\n"), "\n")
	}
	total := len(raw) + len(errLines)
	header := headerLine(total, len(req.Stdout)+len(req.Stderr), 0, savedPath, req.FullOutputPath)
	limit := textan.CharBudget(opts.ContentBudgetTokens) - len(header) - 1
	var eb strings.Builder
	for i, l := range errLines {
		l = cutLine(cleanLine(l), maxShownLine, maxPlainHead)
		if eb.Len()+len(l)+1 > limit/4 {
			eb.WriteString(gapMarker(len(errLines) - i))
			eb.WriteByte('\n')
			break
		}
		eb.WriteString(l)
		eb.WriteByte('\n')
	}
	errOut := opts.Scrub(eb.String())
	pattern := strings.Replace(hint(1, 2), "'1,2p'", "'A,Bp'", 1)
	budget := limit - len(errOut)
	for range 4 {
		out, kept := cutContent(shown, src.kind, budget, hint, pattern)
		out = opts.Scrub(out)
		if over := len(out) + len(errOut) - limit; over > 0 && budget > over {
			budget -= over // scrubbing made it longer: cut again, smaller
			continue
		}
		return Extract{Stdout: header + "\n" + out, Stderr: errOut, Lines: total, Kept: kept + min(len(errLines), strings.Count(errOut, "\n"))}
	}
	return Extract{Stdout: header + "\n", Stderr: errOut, Lines: total}
}

// contentHint returns the command that prints lines x to y (1-based,
// inclusive) of a content output: sed -n over the saved copy when there is
// one, else over the file the command read when its first line is known,
// else over Claude Code's own copy, else the command itself piped to sed.
func contentHint(req Request, src contentSource, savedPath string) func(x, y int) string {
	return func(x, y int) string {
		r := "'" + itoa(x) + "," + itoa(y) + "p' "
		switch {
		case savedPath != "":
			// The saved copy holds exactly the output; the file the command
			// read may have changed since, or be another one in another
			// working directory.
			return "sed -n " + r + shellQuote(savedPath)
		case src.kind == contentFile && src.path != "" && src.firstLine > 0:
			return "sed -n '" + itoa(x+src.firstLine-1) + "," + itoa(y+src.firstLine-1) + "p' " + shellQuote(src.path)
		case req.FullOutputPath != "":
			return "sed -n " + r + shellQuote(req.FullOutputPath)
		}
		return "(" + req.Command + ") | sed -n " + strings.TrimSpace(r)
	}
}

// contentLines is raw cleaned for display, each line longer than
// maxContentLine replaced by a marker that names it, quotes its head and
// gives the command that prints it whole (hint).
func contentLines(raw []string, hint func(x, y int) string) []string {
	shown := make([]string, len(raw))
	for i, l := range raw {
		l = cleanLine(l)
		if len(l) > maxContentLine {
			l = "[… line " + itoa(i+1) + " of " + itoa(len(l)) + " bytes cut, whole with " + hint(i+1, i+1) + "; it begins: " + prefix(l, maxImportantHead) + " …]"
		}
		shown[i] = l
	}
	return shown
}

// shellQuote quotes a word for sh(1) when it needs it.
func shellQuote(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+:@%=,") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// plural is n and noun, with an "s" unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return itoa(n) + " " + noun + "s"
}
