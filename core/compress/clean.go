package compress

import (
	"strings"
	"unicode/utf8"
)

// cleanLine turns one raw output line (without its '\n') into what a
// terminal would finally show, as plain text:
//
//   - carriage-return redraws: the line keeps only its last non-empty
//     '\r'-separated segment (progress meters print every update on one
//     line separated by bare '\r'; a trailing '\r' of CRLF is dropped);
//   - ANSI escapes are removed: CSI (ESC '[' … final byte 0x40–0x7E, e.g.
//     SGR colours and erase-line), OSC (ESC ']' … BEL or ESC '\'), and
//     two-byte ESC sequences; a backspace erases the rune before it;
//   - other C0/C1 control characters (NUL, BEL, DEL …) are dropped; tabs
//     stay; invalid UTF-8 bytes become U+FFFD.
func cleanLine(s string) string {
	if strings.IndexByte(s, '\r') >= 0 {
		s = lastSegment(s)
	}
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i = skipEscape(s, i)
		case c == '\b':
			out := b.String()
			if out != "" {
				_, size := utf8.DecodeLastRuneInString(out)
				b.Reset()
				b.WriteString(out[:len(out)-size])
			}
			i++
		case c == '\t' || c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
			i++
		case c < 0x80: // other C0 controls and DEL
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r >= 0x80 && r < 0xa0 { // C1 controls
				i += size
				continue
			}
			b.WriteRune(r) // RuneError for an invalid byte
			i += size
		}
	}
	return b.String()
}

// lastSegment returns the last non-blank '\r'-separated segment of s, or ""
// when every segment is blank.
func lastSegment(s string) string {
	for s != "" {
		i := strings.LastIndexByte(s, '\r')
		seg := s[i+1:]
		if strings.TrimSpace(stripEscapesQuick(seg)) != "" {
			return seg
		}
		if i < 0 {
			return ""
		}
		s = s[:i]
	}
	return ""
}

// stripEscapesQuick reports a segment's visible text well enough to tell
// whether it is blank (a redraw often starts with an erase-line escape).
func stripEscapesQuick(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i = skipEscape(s, i)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// skipEscape returns the index just past the escape sequence starting at
// s[i] == ESC (ECMA-48 syntax).
func skipEscape(s string, i int) int {
	i++
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[': // CSI: parameter bytes 0x30–0x3F, intermediates 0x20–0x2F, final 0x40–0x7E
		i++
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
			i++
		}
		if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
			i++
		}
		return i
	case ']', 'P', '_', '^': // OSC, DCS, APC, PM: up to BEL or ST (ESC '\')
		for i++; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return i
	case '(', ')', '*', '+': // charset designation: ESC ( B
		return min(i+2, len(s))
	default: // two-byte sequence such as ESC = or ESC 7
		return i + 1
	}
}

// cutLine returns s when it is at most max bytes. A longer line is not
// shown: in its place comes a marker line of the extract's own, which says
// how long the line is and quotes its first head bytes (cut at a rune
// boundary): "[… line of 202445 bytes cut; it begins: {"version":3 …]".
// Every other line an extract shows is verbatim, so a reader can always
// tell a quoted head from a line of the output.
func cutLine(s string, max, head int) string {
	if len(s) <= max {
		return s
	}
	return "[… line of " + itoa(len(s)) + " bytes cut; it begins: " + prefix(s, head) + " …]"
}

// maxCutTail is how many bytes of a cut output line its marker quotes
// from the line's end (cutNamedLine), where a log line's verdict often is
// ("… checksum mismatch").
const maxCutTail = 160

// cutNamedLine is cutLine for line n of a command's stream (stdout or
// stderr, 1-based as in the saved full output): the marker names the line,
// so that sed -n 'Np' on the saved copy prints it whole, and quotes its
// last maxCutTail bytes as well as its head bytes: "[… line 57 of stdout,
// 3067 bytes, cut; it begins: 2026-… INFO sync … and ends: … ERROR
// checksum mismatch …]".
func cutNamedLine(s string, n int, stream string, head int) string {
	if len(s) <= maxShownLine {
		return s
	}
	return "[… line " + itoa(n) + " of " + stream + ", " + itoa(len(s)) + " bytes, cut; it begins: " + prefix(s, head) +
		" … and ends: " + suffix(s, maxCutTail) + " …]"
}

// suffix is s cut to at most its last n bytes at a rune boundary.
func suffix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// prefix is s cut to at most n bytes at a rune boundary.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
