package chunk

import "strings"

// kind classifies one line of markdown for the chunker.
type kind uint8

const (
	kText       kind = iota // any other line
	kBlank                  // blank line outside a code fence
	kFenceOpen              // opening ``` or ~~~ line
	kFenced                 // non-blank line inside a fence
	kFenceBlank             // blank line inside a fence
	kFenceClose             // closing fence line
	kHeading                // ATX heading or setext underline (see event.level)
	kBreak                  // thematic break
)

// event is one classified line. For a setext heading, start is the start
// of the heading's paragraph (its first text line) and end is just after the
// underline.
type event struct {
	kind  kind
	level int    // heading level 1-6 for kHeading
	line  int    // byte offset of the line start
	start int    // byte offset of the line (or setext paragraph) start
	end   int    // byte offset just after the line's '\n', or len(text)
	head  string // heading text, trimmed, closing #s removed; multi-line setext text joined by " "
}

// scanner walks markdown text line by line with just enough CommonMark block
// structure to find headings reliably: fenced code blocks (``` and ~~~, with
// the closing fence at least as long as the opening one and of the same
// character), ATX headings, setext headings (an underline directly below a
// top-level paragraph), thematic breaks, and list/block-quote/HTML context in
// which a "---" line is a thematic break rather than an underline.
//
// It never allocates except to join multi-line setext heading text.
type scanner struct {
	text string
	pos  int // start of the next line

	inFence   bool
	fenceChar byte
	fenceLen  int

	paraStart int    // start of the open top-level paragraph, -1 if none
	container bool   // inside a list item or block quote (no top-level paragraph)
	htmlEnd   string // inside an HTML block: its end marker, or "\n" for "a blank line"
	prevBlank bool
}

func newScanner(text string) scanner {
	return scanner{text: text, paraStart: -1}
}

// next classifies the next line. It returns false at the end of the text.
func (s *scanner) next() (event, bool) {
	if s.pos >= len(s.text) {
		return event{}, false
	}
	start := s.pos
	line := s.text[start:]
	end := len(s.text)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
		end = start + i + 1
	}
	s.pos = end
	ev := event{kind: kText, line: start, start: start, end: end}

	indent, cols := leadingIndent(line)
	rest := trimRightSpace(line[indent:])

	if s.inFence {
		switch {
		case rest == "":
			ev.kind = kFenceBlank
		case isFenceClose(rest, s.fenceChar, s.fenceLen):
			ev.kind = kFenceClose
			s.inFence = false
		default:
			ev.kind = kFenced
		}
		return ev, true
	}

	// HTML blocks (CommonMark 0.31, 4.6) hide headings and fences until
	// their end condition.
	if s.htmlEnd != "" {
		switch {
		case s.htmlEnd == "\n" && rest == "":
			s.htmlEnd = ""
		case rest == "":
			ev.kind = kBlank
			return ev, true
		default:
			if s.htmlEnd != "\n" && containsFold(rest, s.htmlEnd) {
				s.htmlEnd = ""
			}
			return ev, true
		}
	}

	if rest == "" {
		ev.kind = kBlank
		s.paraStart = -1
		s.prevBlank = true
		return ev, true
	}
	prevBlank := s.prevBlank
	s.prevBlank = false

	if s.container && prevBlank && cols == 0 && !isContainerStart(rest, false) {
		s.container = false
	}

	// Fenced code can interrupt a paragraph and may sit inside a list item.
	if cols < 4 || s.container {
		if c, n := fenceOpen(rest); n > 0 {
			s.inFence, s.fenceChar, s.fenceLen = true, c, n
			s.paraStart = -1
			ev.kind = kFenceOpen
			return ev, true
		}
	}

	// ATX heading. Inside a list or quote only an unindented one counts as
	// a top-level heading (it ends the container).
	if cols < 4 && (!s.container || cols == 0) {
		if level, text, ok := atxHeading(rest); ok {
			s.paraStart = -1
			s.container = false
			ev.kind, ev.level, ev.head = kHeading, level, text
			return ev, true
		}
	}

	if cols < 4 {
		if end := htmlStart(rest, s.paraStart >= 0); end != "" {
			s.paraStart = -1
			if end == "\n" || !containsFold(rest[1:], end) {
				s.htmlEnd = end
			}
			return ev, true
		}
	}

	// Setext underline below an open top-level paragraph.
	if s.paraStart >= 0 && cols < 4 {
		if c := setextChar(rest); c != 0 {
			ev.kind = kHeading
			ev.level = 2
			if c == '=' {
				ev.level = 1
			}
			ev.head = joinLines(s.text[s.paraStart:start])
			ev.start = s.paraStart
			s.paraStart = -1
			return ev, true
		}
	}

	if cols < 4 && isThematicBreak(rest) {
		s.paraStart = -1
		if cols == 0 {
			s.container = false
		}
		ev.kind = kBreak
		return ev, true
	}

	if cols < 4 || s.container {
		if isContainerStart(rest, s.paraStart >= 0) {
			s.container = true
			s.paraStart = -1
			return ev, true
		}
	}

	if s.container || s.paraStart >= 0 {
		return ev, true // continuation line
	}
	if cols >= 4 {
		return ev, true // indented code
	}
	s.paraStart = start
	return ev, true
}

// leadingIndent returns the byte length of the leading spaces and tabs and
// their width in columns (a tab advances to the next multiple of 4).
func leadingIndent(line string) (n, cols int) {
	for n < len(line) {
		switch line[n] {
		case ' ':
			cols++
		case '\t':
			cols += 4 - cols%4
		default:
			return n, cols
		}
		n++
	}
	return n, cols
}

func trimRightSpace(s string) string {
	for len(s) > 0 {
		switch s[len(s)-1] {
		case ' ', '\t', '\r', '\f', '\v':
			s = s[:len(s)-1]
		default:
			return s
		}
	}
	return s
}

// fenceOpen reports the fence character and run length of an opening code
// fence, or 0 if rest does not open one. A backtick fence's info string may
// not contain a backtick (CommonMark 0.31, 4.5).
func fenceOpen(rest string) (byte, int) {
	if len(rest) < 3 || (rest[0] != '`' && rest[0] != '~') {
		return 0, 0
	}
	c := rest[0]
	n := 0
	for n < len(rest) && rest[n] == c {
		n++
	}
	if n < 3 {
		return 0, 0
	}
	if c == '`' && strings.IndexByte(rest[n:], '`') >= 0 {
		return 0, 0
	}
	return c, n
}

// isFenceClose reports whether rest closes a fence of char c and length n:
// at least n of c and nothing else.
func isFenceClose(rest string, c byte, n int) bool {
	if len(rest) < n {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] != c {
			return false
		}
	}
	return true
}

// atxHeading parses "#{1,6}" followed by a space, a tab or the end of the
// line. The text is trimmed and an optional closing sequence of #s (preceded
// by a space) is removed.
func atxHeading(rest string) (level int, text string, ok bool) {
	for level < len(rest) && rest[level] == '#' {
		level++
	}
	if level == 0 || level > 6 {
		return 0, "", false
	}
	if level < len(rest) && rest[level] != ' ' && rest[level] != '\t' {
		return 0, "", false
	}
	text = strings.TrimSpace(rest[level:])
	// Closing sequence: trailing #s that are the whole text or follow a space.
	j := len(text)
	for j > 0 && text[j-1] == '#' {
		j--
	}
	if j == 0 {
		text = ""
	} else if j < len(text) && (text[j-1] == ' ' || text[j-1] == '\t') {
		text = strings.TrimRight(text[:j], " \t")
	}
	return level, strings.TrimSpace(text), true
}

// setextChar returns '=' or '-' if rest is a setext underline (a run of one
// of them with nothing else), else 0.
func setextChar(rest string) byte {
	c := rest[0]
	if c != '=' && c != '-' {
		return 0
	}
	for i := 1; i < len(rest); i++ {
		if rest[i] != c {
			return 0
		}
	}
	return c
}

// isThematicBreak reports three or more of the same -, * or _, optionally
// separated by spaces or tabs.
func isThematicBreak(rest string) bool {
	c := rest[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// isContainerStart reports a block quote marker or a list item marker. When
// it would interrupt a paragraph, CommonMark only allows a non-empty bullet
// item or an ordered item starting at 1.
func isContainerStart(rest string, interrupting bool) bool {
	switch rest[0] {
	case '>':
		return true
	case '-', '*', '+':
		if len(rest) == 1 {
			return !interrupting
		}
		return rest[1] == ' ' || rest[1] == '\t'
	}
	i := 0
	for i < len(rest) && i < 10 && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || i > 9 || i >= len(rest) || (rest[i] != '.' && rest[i] != ')') {
		return false
	}
	if i+1 < len(rest) && rest[i+1] != ' ' && rest[i+1] != '\t' {
		return false
	}
	if interrupting && (rest[:i] != "1" || i+1 >= len(rest)) {
		return false
	}
	return true
}

// htmlStart reports whether rest opens an HTML block and returns its end
// marker ("\n" for "ends at a blank line"), or "". Types 1-6 may interrupt
// a paragraph, type 7 (any other complete tag alone on its line) may not
// (CommonMark 0.31, 4.6).
func htmlStart(rest string, interrupting bool) string {
	if len(rest) < 2 || rest[0] != '<' {
		return ""
	}
	switch {
	case strings.HasPrefix(rest, "<!--"):
		return "-->"
	case strings.HasPrefix(rest, "<?"):
		return "?>"
	case strings.HasPrefix(rest, "<![CDATA["):
		return "]]>"
	case rest[1] == '!' && len(rest) > 2 && isASCIILetter(rest[2]):
		return ">"
	}
	closing := rest[1] == '/'
	name := rest[1:]
	if closing {
		name = rest[2:]
	}
	n := 0
	for n < len(name) && (isASCIILetter(name[n]) || (n > 0 && (name[n] >= '0' && name[n] <= '9' || name[n] == '-'))) {
		n++
	}
	if n == 0 {
		return ""
	}
	after := name[n:]
	tag := strings.ToLower(name[:n])
	if !closing {
		switch tag {
		case "pre", "script", "style", "textarea":
			if after == "" || after[0] == ' ' || after[0] == '\t' || after[0] == '>' {
				return "</" + tag + ">"
			}
		}
	}
	if blockTags[tag] && (after == "" || after[0] == ' ' || after[0] == '\t' || after[0] == '>' || strings.HasPrefix(after, "/>")) {
		return "\n"
	}
	if !interrupting && rest[len(rest)-1] == '>' && strings.IndexByte(rest[1:], '<') < 0 {
		return "\n"
	}
	return ""
}

// blockTags are the HTML block-level tag names of CommonMark 0.31, 4.6
// (type 6).
var blockTags = map[string]bool{
	"address": true, "article": true, "aside": true, "base": true,
	"basefont": true, "blockquote": true, "body": true, "caption": true,
	"center": true, "col": true, "colgroup": true, "dd": true,
	"details": true, "dialog": true, "dir": true, "div": true, "dl": true,
	"dt": true, "fieldset": true, "figcaption": true, "figure": true,
	"footer": true, "form": true, "frame": true, "frameset": true, "h1": true,
	"h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "head": true,
	"header": true, "hr": true, "html": true, "iframe": true, "legend": true,
	"li": true, "link": true, "main": true, "menu": true, "menuitem": true,
	"nav": true, "noframes": true, "ol": true, "optgroup": true,
	"option": true, "p": true, "param": true, "search": true, "section": true,
	"summary": true, "table": true, "tbody": true, "td": true, "tfoot": true,
	"th": true, "thead": true, "title": true, "tr": true, "track": true,
	"ul": true,
}

func isASCIILetter(c byte) bool {
	return c|0x20 >= 'a' && c|0x20 <= 'z'
}

// containsFold reports whether s contains the ASCII marker sub, ignoring
// ASCII case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// joinLines trims every line of a setext heading paragraph and joins them
// with single spaces. The common single-line case does not allocate.
func joinLines(p string) string {
	p = strings.TrimRight(p, "\n")
	if strings.IndexByte(p, '\n') < 0 {
		return strings.TrimSpace(p)
	}
	var b strings.Builder
	for _, l := range strings.Split(p, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(l)
	}
	return b.String()
}
