package note

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// fastYAML reads the flat YAML that nearly every note carries ("key: value"
// lines, plain or quoted scalars, flow lists "[a, b]", block lists "- a")
// about 20 times faster than gopkg.in/yaml.v2, which dominated Parse.
//
// It is a fast path, not a parser: it returns ok=false as soon as the block
// uses anything outside that subset (nesting, multi-line or block scalars,
// escapes, anchors, tags, comments after values, tabs, control characters,
// repeated keys, or a title/type/tags/aliases value that YAML 1.1 would
// resolve to a non-string such as 2024, yes or null), and the caller then
// decodes with the full decoder. When it returns ok=true, the meta equals
// what the full decoder gives; TestFastYAMLEquivalence and FuzzFastYAML
// check that on real corpora and fuzzed input.
func fastYAML(inner string) (meta, bool) {
	if !yamlPrintable(inner) {
		return meta{}, false
	}
	m := map[string]any{}
	var (
		listKey    string // key whose block list may follow, "" if none
		list       []any
		listIndent = -1
	)
	closeList := func() {
		if listKey != "" && list != nil {
			m[listKey] = list
		}
		listKey, list, listIndent = "", nil, -1
	}
	for rest := inner; rest != ""; {
		var line string
		line, rest = cutLine(rest)
		line = strings.TrimRight(line, " ")
		if line == "" {
			continue
		}
		if line[0] == ' ' || line[0] == '-' {
			t := strings.TrimLeft(line, " ")
			indent := len(line) - len(t)
			if listKey == "" || (t != "-" && !strings.HasPrefix(t, "- ")) {
				return meta{}, false
			}
			if listIndent >= 0 && indent != listIndent {
				return meta{}, false
			}
			listIndent = indent
			v := strings.TrimLeft(t[1:], " ")
			if v == "" {
				list = append(list, nil)
				continue
			}
			s, ok := plainOrQuoted(v, interesting(listKey), false)
			if !ok {
				return meta{}, false
			}
			list = append(list, s)
			continue
		}
		if line[0] == '#' {
			continue
		}
		closeList()
		i := strings.IndexByte(line, ':')
		if i <= 0 || !yamlKey(line[:i]) {
			return meta{}, false
		}
		key, v := line[:i], line[i+1:]
		if v != "" && v[0] != ' ' {
			return meta{}, false
		}
		if _, dup := m[key]; dup {
			return meta{}, false
		}
		v = strings.TrimLeft(v, " ")
		switch {
		case v == "" || v[0] == '#':
			m[key] = nil
			listKey = key
		case v[0] == '[':
			l, ok := flowList(v, interesting(key))
			if !ok {
				return meta{}, false
			}
			m[key] = l
		default:
			s, ok := plainOrQuoted(v, interesting(key), false)
			if !ok {
				return meta{}, false
			}
			m[key] = s
		}
	}
	closeList()
	return metaFromMap(m), true
}

// interesting reports keys whose values metaFromMap reads.
func interesting(key string) bool {
	switch strings.ToLower(key) {
	case "title", "type", "tags", "tag", "aliases", "alias", "taxonomies":
		return true
	}
	return false
}

// yamlKey accepts simple plain keys: a letter or '_' first, then letters,
// digits, '_', '-', '.', '/' and inner spaces.
func yamlKey(k string) bool {
	if k == "" || k[len(k)-1] == ' ' {
		return false
	}
	switch strings.ToLower(k) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return false // YAML 1.1 resolves these keys to booleans or null
	}
	for i, r := range k {
		switch {
		case unicode.IsLetter(r) || r == '_':
		case i > 0 && (unicode.IsDigit(r) || r == '-' || r == '.' || r == '/' || r == ' '):
		default:
			return false
		}
	}
	return true
}

// plainOrQuoted reads one scalar. Quoted scalars may not contain escapes
// or their own quote (except ” in single quotes). Plain scalars may not
// start with an indicator or contain ": " or " #"; in a flow list they may
// not contain flow indicators either. A value that must be a string (mustStr) may not
// be one that YAML 1.1 resolves to a number, boolean, date or null.
func plainOrQuoted(v string, mustStr, flow bool) (string, bool) {
	switch v[0] {
	case '"':
		if len(v) < 2 || v[len(v)-1] != '"' {
			return "", false
		}
		s := v[1 : len(v)-1]
		if strings.ContainsAny(s, "\"\\") {
			return "", false
		}
		return s, true
	case '\'':
		if len(v) < 2 || v[len(v)-1] != '\'' {
			return "", false
		}
		s := v[1 : len(v)-1]
		if strings.Contains(strings.ReplaceAll(s, "''", ""), "'") {
			return "", false
		}
		return strings.ReplaceAll(s, "''", "'"), true
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`':
		return "", false
	}
	if strings.Contains(v, ": ") || strings.Contains(v, " #") || v[len(v)-1] == ':' {
		return "", false
	}
	if flow && strings.ContainsAny(v, "[]{},'\"") {
		return "", false
	}
	if mustStr {
		r, _ := utf8.DecodeRuneInString(v)
		if !unicode.IsLetter(r) {
			return "", false
		}
		switch strings.ToLower(v) {
		case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
			return "", false
		}
	}
	return v, true
}

// flowList reads "[a, 'b, c', "d [e]"]": plain or quoted elements (quoted
// ones may hold commas and brackets), no nesting, no empty elements.
func flowList(v string, mustStr bool) ([]any, bool) {
	if v[len(v)-1] != ']' {
		return nil, false
	}
	body := strings.Trim(v[1:len(v)-1], " ")
	out := []any{}
	for body != "" {
		var elem string
		switch body[0] {
		case '"':
			j := strings.IndexByte(body[1:], '"')
			if j < 0 {
				return nil, false
			}
			elem, body = body[:j+2], body[j+2:]
		case '\'':
			j := 1
			for {
				k := strings.IndexByte(body[j:], '\'')
				if k < 0 {
					return nil, false
				}
				j += k + 1
				if j < len(body) && body[j] == '\'' {
					j++ // '' is an escaped quote
					continue
				}
				break
			}
			elem, body = body[:j], body[j:]
		default:
			j := strings.IndexByte(body, ',')
			if j < 0 {
				j = len(body)
			}
			elem, body = strings.TrimRight(body[:j], " "), body[j:]
		}
		if elem == "" {
			return nil, false
		}
		s, ok := plainOrQuoted(elem, mustStr, true)
		if !ok {
			return nil, false
		}
		out = append(out, s)
		body = strings.TrimLeft(body, " ")
		if body == "" {
			break
		}
		if body[0] != ',' {
			return nil, false
		}
		body = strings.TrimLeft(body[1:], " ")
		if body == "" {
			return nil, false // trailing comma
		}
	}
	return out, true
}

// yamlPrintable reports text made only of the characters YAML allows
// unescaped (YAML 1.1, 5.1, as gopkg.in/yaml.v2 checks them), without tabs.
func yamlPrintable(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c != '\n' && (c < 0x20 || c == 0x7F) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			return false // invalid UTF-8
		case r == 0x85, r >= 0xA0 && r <= 0xD7FF, r >= 0x10000 && r <= 0x10FFFF:
		case r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF:
		default:
			return false
		}
	}
	return true
}
