package recall

import (
	"strings"
	"unicode"
)

// IsSlashCommand reports whether prompt is a Claude Code slash command such
// as "/model" or "/clear foo": after leading whitespace it starts with "/"
// and a letter, and its first word holds no further "/" (so "/usr/bin is
// slow" is a question about a path, not a command).
func IsSlashCommand(prompt string) bool {
	p := strings.TrimLeftFunc(prompt, unicode.IsSpace)
	if len(p) < 2 || p[0] != '/' {
		return false
	}
	first := p[1:]
	if i := strings.IndexFunc(first, unicode.IsSpace); i >= 0 {
		first = first[:i]
	}
	if first == "" {
		return false
	}
	for i, r := range first {
		if i == 0 && !unicode.IsLetter(r) {
			return false
		}
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == ':') {
			return false
		}
	}
	return true
}
