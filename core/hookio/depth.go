package hookio

import (
	"bytes"

	"github.com/tidwall/gjson"
)

// MaxDepth is the deepest nesting of JSON arrays and objects a hook reads:
// 10,000 levels, the limit of Go's encoding/json (maxNestingDepth). Claude
// Code's payloads nest a few levels (a tool_input of an MCP tool perhaps a
// few dozen).
//
// gjson's validator recurses once per level, and at some 6 million levels
// (a 12 MB payload of '[') it overflows the goroutine stack's 1 GB limit,
// a fatal error that recover cannot catch, after using a gigabyte of
// memory. Valid therefore measures the depth first, in one pass without
// recursion, and refuses deeper input before any recursive parse.
const MaxDepth = 10000

// Valid reports whether data is one valid JSON value whose arrays and
// objects nest at most MaxDepth deep. Every hook checks its stdin and each
// transcript line with it before any other gjson call: its cost is one
// pass over data (strings are skipped with bytes.IndexByte), and no
// recursion is deeper than MaxDepth.
func Valid(data []byte) bool {
	return Depth(data, MaxDepth) <= MaxDepth && gjson.ValidBytes(data)
}

// Depth returns the deepest nesting of arrays and objects in data, the
// brackets inside strings not counted, or limit+1 as soon as the depth
// passes limit. It does not check that data is valid JSON: an unclosed
// string ends the scan, and unbalanced brackets only count while open.
func Depth(data []byte, limit int) int {
	depth, deepest := 0, 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			// Skip to the closing quote. q is the next quote at or after
			// i (kept while the escapes before it are stepped over, so
			// each byte is searched at most twice); a backslash before q
			// escapes the byte after it, which may be q itself.
			i++
			q := -1
			for {
				if q < i {
					j := bytes.IndexByte(data[i:], '"')
					if j < 0 {
						return deepest
					}
					q = i + j
				}
				b := bytes.IndexByte(data[i:q], '\\')
				if b < 0 {
					i = q
					break
				}
				i += b + 2 // the backslash and the escaped byte
			}
		case '[', '{':
			depth++
			if depth > deepest {
				deepest = depth
				if deepest > limit {
					return limit + 1
				}
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return deepest
}
