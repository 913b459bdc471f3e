package hookio

import (
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/tidwall/gjson"
)

// Fields returns the values of the named keys of a JSON object in one pass
// (the first occurrence of each), as Result.Get would one by one; missing
// keys give a zero Result. It is for large objects such as a Bash
// tool_response: string values are unescaped a run of plain bytes at a
// time (gjson unescapes byte by byte), and a value that is not wanted is
// skipped without being decoded. The Results carry no Index. An object the
// fast scan cannot read (not one JSON object) is read with gjson's
// ForEach instead.
func Fields(obj gjson.Result, keys ...string) []gjson.Result {
	if out, ok := fieldsFast(obj.Raw, keys); ok {
		return out
	}
	return fieldsForEach(obj, keys...)
}

// fieldsForEach is Fields with gjson's ForEach: the reference of the fast
// scan.
func fieldsForEach(obj gjson.Result, keys ...string) []gjson.Result {
	out := make([]gjson.Result, len(keys))
	found := make([]bool, len(keys))
	left := len(keys)
	obj.ForEach(func(key, value gjson.Result) bool {
		for i, k := range keys {
			if !found[i] && key.Str == k {
				out[i], found[i] = value, true
				left--
			}
		}
		return left > 0
	})
	return out
}

// fieldsFast scans the members of the JSON object raw; ok is false when it
// meets anything but a well-formed object.
func fieldsFast(raw string, keys []string) (out []gjson.Result, ok bool) {
	out = make([]gjson.Result, len(keys))
	found := make([]bool, len(keys))
	left := len(keys)
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	for i++; ; {
		i = skipSpace(raw, i)
		if i < len(raw) && raw[i] == '}' {
			return out, true
		}
		end, ok := stringEnd(raw, i)
		if !ok {
			return nil, false
		}
		key := unescapeJSON(raw[i+1 : end-1])
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
		vend, ok := valueEnd(raw, i)
		if !ok {
			return nil, false
		}
		for k, want := range keys {
			if !found[k] && key == want {
				out[k], found[k] = jsonValue(raw[i:vend]), true
				left--
			}
		}
		if left == 0 {
			return out, true
		}
		i = skipSpace(raw, vend)
		switch {
		case i < len(raw) && raw[i] == ',':
			i++
		case i < len(raw) && raw[i] == '}':
			return out, true
		default:
			return nil, false
		}
	}
}

// jsonValue is the Result of one complete JSON value v.
func jsonValue(v string) gjson.Result {
	if v[0] == '"' {
		return gjson.Result{Type: gjson.String, Raw: v, Str: unescapeJSON(v[1 : len(v)-1])}
	}
	r := gjson.Parse(v)
	r.Index = 0
	return r
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the JSON string starting at s[i].
func stringEnd(s string, i int) (int, bool) {
	if i >= len(s) || s[i] != '"' {
		return 0, false
	}
	for j := i + 1; ; {
		k := strings.IndexByte(s[j:], '"')
		if k < 0 {
			return 0, false
		}
		j += k
		n := 0 // backslashes before the quote
		for b := j - 1; b > i && s[b] == '\\'; b-- {
			n++
		}
		if n%2 == 0 {
			return j + 1, true
		}
		j++
	}
}

// valueEnd returns the index just past the JSON value starting at s[i].
func valueEnd(s string, i int) (int, bool) {
	if i >= len(s) {
		return 0, false
	}
	switch s[i] {
	case '"':
		return stringEnd(s, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '"':
				end, ok := stringEnd(s, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for j < len(s) && s[j] != ',' && s[j] != '}' && s[j] != ']' && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' && s[j] != '\r' {
		j++
	}
	return j, j > i
}

// unescapeJSON decodes the body of a JSON string as gjson does: standard
// escapes, \uXXXX with surrogate pairs joined and lone surrogates as
// U+FFFD; it copies the runs between backslashes whole.
func unescapeJSON(s string) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s
	}
	// A Builder: its String does not copy megabytes again.
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		b.WriteString(s[:i])
		s = s[i:] // s[0] == '\\'
		if len(s) < 2 {
			return b.String()
		}
		n := 2
		switch s[1] {
		case '\\', '/', '"':
			b.WriteByte(s[1])
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			if len(s) < 6 {
				return b.String()
			}
			r := hex4(s[2:6])
			n = 6
			if r >= 0xD800 && r < 0xDC00 && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
				if r2 := hex4(s[8:12]); r2 >= 0xDC00 && r2 < 0xE000 {
					r = utf16.DecodeRune(r, r2)
					n = 12
				}
			}
			b.WriteRune(r)
		default:
			return b.String()
		}
		s = s[n:]
		i = strings.IndexByte(s, '\\')
	}
	b.WriteString(s)
	return b.String()
}

// hex4 parses four hex digits as gjson does (0 when they are not).
func hex4(s string) rune {
	n, _ := strconv.ParseUint(s, 16, 64)
	return rune(n)
}
