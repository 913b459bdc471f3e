package note

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// bodyInfo is what one pass over a note body finds.
type bodyInfo struct {
	h1   string   // first ATX or setext H1 outside code fences
	tags []string // inline #tags in order of appearance (may repeat)
	// unclosedFence is the 1-based body line of a code fence that is never
	// closed, or 0.
	unclosedFence int
}

// scanBody finds the first H1 and the inline tags of a body in one pass.
//
// Fences: a line whose first non-blank characters are 3 or more backticks
// or tildes opens a fence (a backtick fence's info string may not contain a
// backtick); it closes at a line of at least as many of the same character
// (CommonMark 0.31, 4.5). Inside fences nothing is read.
func scanBody(body string) bodyInfo {
	var (
		info      bodyInfo
		inFence   bool
		fenceChar byte
		fenceLen  int
		fenceLine int
		inComment bool   // inside an Obsidian %% comment %%
		prevPara  string // previous line if it can be a setext heading's text
	)
	lineNo := 0
	for rest := body; rest != ""; {
		var line string
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			line, rest = rest, ""
		}
		lineNo++
		indent := 0
		for indent < len(line) && (line[indent] == ' ' || line[indent] == '\t') {
			indent++
		}
		t := line[indent:]
		for len(t) > 0 && (t[len(t)-1] == ' ' || t[len(t)-1] == '\t' || t[len(t)-1] == '\r') {
			t = t[:len(t)-1]
		}

		if inFence {
			if len(t) >= fenceLen && t[0] == fenceChar && allByte(t, fenceChar) {
				inFence = false
			}
			continue
		}
		if c, n := fence(t); n > 0 {
			inFence, fenceChar, fenceLen, fenceLine = true, c, n, lineNo
			prevPara = ""
			continue
		}
		if t == "" {
			prevPara = ""
			continue
		}
		if info.h1 == "" && indent < 4 && !inComment {
			if h, ok := atxH1(t); ok {
				info.h1 = h
			} else if prevPara != "" && t[0] == '=' && allByte(t, '=') {
				info.h1 = prevPara
			}
		}
		if indent < 4 && isParaText(t) {
			prevPara = t
		} else {
			prevPara = ""
		}
		if indent < 4 && isLinkDefinition(t) {
			continue // "[1]: #anchor" is a link target, not a tag
		}
		if strings.IndexByte(t, '#') >= 0 || strings.Contains(t, "%%") {
			info.tags, inComment = lineTags(t, info.tags, inComment)
		}
	}
	if inFence {
		info.unclosedFence = fenceLine
	}
	return info
}

// fence returns the character and length of an opening code fence.
func fence(t string) (byte, int) {
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || (t[0] == '`' && strings.IndexByte(t[n:], '`') >= 0) {
		return 0, 0
	}
	return t[0], n
}

// atxH1 parses "# Title" (closing #s removed); "#tag" is not a heading.
func atxH1(t string) (string, bool) {
	if len(t) < 2 || t[0] != '#' || (t[1] != ' ' && t[1] != '\t') {
		return "", false
	}
	h := strings.TrimSpace(t[1:])
	if j := strings.TrimRight(h, "#"); j == "" {
		h = ""
	} else if len(j) < len(h) && (j[len(j)-1] == ' ' || j[len(j)-1] == '\t') {
		h = strings.TrimSpace(j)
	}
	return h, h != ""
}

// isParaText reports a line that can be the text of a setext heading: not
// a heading, list item, block quote, table row or HTML.
func isParaText(t string) bool {
	switch t[0] {
	case '#', '>', '|', '<', '-', '*', '+', '=':
		return false
	}
	if t[0] >= '0' && t[0] <= '9' {
		i := strings.IndexAny(t, ".)")
		if i > 0 && i < 10 && strings.Trim(t[:i], "0123456789") == "" {
			return false
		}
	}
	return true
}

// lineTags appends the inline tags of one line. A tag is '#' at the start
// of the line or after white space, followed by letters, digits, marks,
// '_', '-' and '/', with at least one letter (so "#123" and "# Heading"
// are not tags, and neither are URL fragments like "a.html#part" or
// "[[Note#Heading]]"). Inline code spans and %% comments %% are skipped.
func lineTags(t string, tags []string, inComment bool) ([]string, bool) {
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c == '%' && i+1 < len(t) && t[i+1] == '%':
			inComment = !inComment
			i += 2
			continue
		case inComment:
			i++
			continue
		case c == '`':
			n := 1
			for i+n < len(t) && t[i+n] == '`' {
				n++
			}
			if end := closingTicks(t[i+n:], n); end >= 0 {
				i += n + end + n
			} else {
				i += n
			}
			continue
		case c == '#' && (i == 0 || t[i-1] == ' ' || t[i-1] == '\t'):
			j, letter := i+1, false
			for j < len(t) {
				r, size := utf8.DecodeRuneInString(t[j:])
				if unicode.IsLetter(r) {
					letter = true
				} else if !unicode.IsDigit(r) && !unicode.IsMark(r) && r != '_' && r != '-' && r != '/' {
					break
				}
				j += size
			}
			if tag := strings.Trim(t[i+1:j], "/"); letter && tag != "" {
				tags = append(tags, tag)
			}
			i = j
			continue
		}
		i++
	}
	return tags, inComment
}

// closingTicks finds a run of exactly n backticks in s and returns its
// offset, or -1.
func closingTicks(s string, n int) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}

// allByte reports whether every byte of s is c.
func allByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			return false
		}
	}
	return true
}

// isLinkDefinition reports a link reference definition line, "[label]: dest".
func isLinkDefinition(t string) bool {
	if len(t) < 4 || t[0] != '[' || t[1] == '^' {
		return false
	}
	i := strings.Index(t, "]:")
	return i > 1 && (i+2 == len(t) || t[i+2] == ' ' || t[i+2] == '\t')
}
