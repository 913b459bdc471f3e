package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// node is one JSON value of a settings file, with the byte span it occupies
// in the source. The tree only records where things are; edits are made by
// splicing bytes into the source, so everything outside an edit keeps its
// exact bytes: key order, number literals, string escapes and whitespace.
type node struct {
	kind       byte // '{', '[', '"', or '0' for numbers, true, false and null
	start, end int  // src[start:end] is the value's text
	members    []member
	elems      []*node
}

// member is one key/value pair of an object node.
type member struct {
	key              string // decoded
	keyStart, keyEnd int    // span of the quoted key
	val              *node
}

// parseTree builds the span tree of src. src must already be valid JSON
// (json.Valid); parseTree does not diagnose syntax errors.
func parseTree(src []byte) (*node, error) {
	p := &parser{src: src}
	p.ws()
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	return n, nil
}

type parser struct {
	src []byte
	i   int
}

func (p *parser) ws() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value() (*node, error) {
	if p.i >= len(p.src) {
		return nil, fmt.Errorf("parse settings: unexpected end at byte %d", p.i)
	}
	switch c := p.src[p.i]; c {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		start := p.i
		if err := p.skipString(); err != nil {
			return nil, err
		}
		return &node{kind: '"', start: start, end: p.i}, nil
	default:
		start := p.i
		for p.i < len(p.src) {
			c := p.src[p.i]
			if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				break
			}
			p.i++
		}
		if p.i == start {
			return nil, fmt.Errorf("parse settings: unexpected %q at byte %d", c, start)
		}
		return &node{kind: '0', start: start, end: p.i}, nil
	}
}

func (p *parser) skipString() error {
	start := p.i
	p.i++ // opening quote
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case '\\':
			p.i += 2
		case '"':
			p.i++
			return nil
		default:
			p.i++
		}
	}
	return fmt.Errorf("parse settings: unterminated string at byte %d", start)
}

func (p *parser) object() (*node, error) {
	n := &node{kind: '{', start: p.i}
	p.i++
	p.ws()
	for p.i < len(p.src) && p.src[p.i] != '}' {
		if p.src[p.i] == ',' {
			p.i++
			p.ws()
			continue
		}
		ks := p.i
		if err := p.skipString(); err != nil {
			return nil, err
		}
		var key string
		if err := json.Unmarshal(p.src[ks:p.i], &key); err != nil {
			return nil, fmt.Errorf("parse settings: key at byte %d: %w", ks, err)
		}
		m := member{key: key, keyStart: ks, keyEnd: p.i}
		p.ws()
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return nil, fmt.Errorf("parse settings: missing colon at byte %d", p.i)
		}
		p.i++
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		m.val = v
		n.members = append(n.members, m)
		p.ws()
	}
	if p.i >= len(p.src) {
		return nil, fmt.Errorf("parse settings: unterminated object at byte %d", n.start)
	}
	p.i++
	n.end = p.i
	return n, nil
}

func (p *parser) array() (*node, error) {
	n := &node{kind: '[', start: p.i}
	p.i++
	p.ws()
	for p.i < len(p.src) && p.src[p.i] != ']' {
		if p.src[p.i] == ',' {
			p.i++
			p.ws()
			continue
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		p.ws()
	}
	if p.i >= len(p.src) {
		return nil, fmt.Errorf("parse settings: unterminated array at byte %d", n.start)
	}
	p.i++
	n.end = p.i
	return n, nil
}

// lookup returns the members of object n named key, in source order.
func (n *node) lookup(key string) []int {
	var idx []int
	for i, m := range n.members {
		if m.key == key {
			idx = append(idx, i)
		}
	}
	return idx
}

// get returns the value of the single member key of object n, or nil when n
// is not an object or has no such member. With duplicate keys it returns the
// last one, as JavaScript's JSON.parse (and so Claude Code) does.
func (n *node) get(key string) *node {
	if n == nil || n.kind != '{' {
		return nil
	}
	idx := n.lookup(key)
	if len(idx) == 0 {
		return nil
	}
	return n.members[idx[len(idx)-1]].val
}

// str decodes a string node, reporting false for any other kind.
func (n *node) str(src []byte) (string, bool) {
	if n == nil || n.kind != '"' {
		return "", false
	}
	var s string
	if err := json.Unmarshal(src[n.start:n.end], &s); err != nil {
		return "", false
	}
	return s, true
}

// compact returns the whitespace-free text of n, for comparing values
// regardless of how a file is indented.
func (n *node) compact(src []byte) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, src[n.start:n.end]); err != nil {
		return src[n.start:n.end]
	}
	return b.Bytes()
}

// kindName names a node kind for error messages.
func kindName(k byte) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	default:
		return "a number, boolean or null"
	}
}

// style is how a file is laid out, so that inserted text looks like its
// neighbours: the indent unit ("  ", "    ", "\t"), whether the file is on
// one line, and whether its lines end in CRLF.
type style struct {
	unit    string
	compact bool
	crlf    bool
}

// detectStyle reads the indent unit from the first indented line of src.
// A file without newlines is compact; an empty file or a bare {} gets two
// spaces, the layout Claude Code itself writes.
func detectStyle(src []byte) style {
	st := detectIndent(src)
	st.crlf = !st.compact && bytes.Contains(src, []byte("\r\n"))
	return st
}

func detectIndent(src []byte) style {
	trimmed := bytes.TrimSpace(src)
	if len(trimmed) == 0 || bytes.Equal(bytes.Join(bytes.Fields(trimmed), nil), []byte("{}")) {
		return style{unit: "  "}
	}
	if !bytes.ContainsRune(trimmed, '\n') {
		return style{compact: true}
	}
	for i := 0; i < len(src); i++ {
		if src[i] != '\n' {
			continue
		}
		j := i + 1
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j > i+1 && j < len(src) && src[j] != '\n' && src[j] != '\r' {
			return style{unit: string(src[i+1 : j])}
		}
	}
	return style{unit: "  "}
}

// lineIndent returns the leading whitespace of the line holding byte pos.
func lineIndent(src []byte, pos int) string {
	ls := bytes.LastIndexByte(src[:pos], '\n') + 1
	j := ls
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	return string(src[ls:j])
}

// format lays out the compact JSON value v to sit at a line whose indent is
// prefix.
func (s style) format(v []byte, prefix string) []byte {
	if s.compact {
		return v
	}
	var b bytes.Buffer
	if err := json.Indent(&b, v, prefix, s.unit); err != nil {
		return v
	}
	return s.newlines(b.Bytes())
}

// newlines converts the LF line ends of text made here to the file's.
func (s style) newlines(b []byte) []byte {
	if !s.crlf {
		return b
	}
	return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
}

// splice returns src with src[from:to] replaced by repl.
func splice(src []byte, from, to int, repl []byte) []byte {
	out := make([]byte, 0, len(src)-(to-from)+len(repl))
	out = append(out, src[:from]...)
	out = append(out, repl...)
	return append(out, src[to:]...)
}

// wsBefore returns the index just after the last non-whitespace byte
// before pos: the end of the delimiter ('{', '[' or ',') preceding pos.
func wsBefore(src []byte, pos int) int {
	j := pos
	for j > 0 {
		switch src[j-1] {
		case ' ', '\t', '\n', '\r':
			j--
		default:
			return j
		}
	}
	return j
}

// appendElem returns src with the compact value v appended to array arr.
func appendElem(src []byte, st style, arr *node, v []byte) []byte {
	if len(arr.elems) == 0 {
		return fillEmpty(src, st, arr, v)
	}
	last := arr.elems[len(arr.elems)-1]
	sep := src[wsBefore(src, last.start):last.start]
	ins := append([]byte{','}, sep...)
	ins = append(ins, st.format(v, lineIndent(src, last.start))...)
	return splice(src, last.end, last.end, ins)
}

// appendMember returns src with the member key: v appended to object obj.
func appendMember(src []byte, st style, obj *node, key string, v []byte) []byte {
	kq, _ := marshalNoEscape(key)
	if len(obj.members) == 0 {
		colon := ": "
		if st.compact {
			colon = ":"
		}
		return fillEmpty(src, st, obj, append(append(kq, colon...), v...))
	}
	last := obj.members[len(obj.members)-1]
	sep := src[wsBefore(src, last.keyStart):last.keyStart]
	colon := src[last.keyEnd:last.val.start]
	ins := append([]byte{','}, sep...)
	ins = append(ins, kq...)
	ins = append(ins, colon...)
	ins = append(ins, st.format(v, lineIndent(src, last.keyStart))...)
	return splice(src, last.val.end, last.val.end, ins)
}

// fillEmpty replaces the empty container c with one holding item, which is
// a compact value or a compact `"key": value` pair.
func fillEmpty(src []byte, st style, c *node, item []byte) []byte {
	open, close := src[c.start], src[c.end-1]
	if st.compact {
		return splice(src, c.start, c.end, append(append([]byte{open}, item...), close))
	}
	outer := lineIndent(src, c.start)
	inner := outer + st.unit
	nl := string(st.newlines([]byte("\n")))
	var b bytes.Buffer
	b.WriteByte(open)
	b.WriteString(nl)
	b.WriteString(inner)
	b.Write(st.formatItem(item, inner))
	b.WriteString(nl)
	b.WriteString(outer)
	b.WriteByte(close)
	return splice(src, c.start, c.end, b.Bytes())
}

// formatItem is format for an item that may be a `"key": value` pair.
func (s style) formatItem(item []byte, prefix string) []byte {
	if item[0] != '"' {
		return s.format(item, prefix)
	}
	// A key: find the end of the quoted key, then format the value.
	p := &parser{src: item}
	if err := p.skipString(); err != nil {
		return item
	}
	k := p.i
	p.ws()
	p.i++ // colon
	for p.i < len(item) && item[p.i] == ' ' {
		p.i++
	}
	out := append([]byte{}, item[:k]...)
	out = append(out, item[k:p.i]...)
	return append(out, s.format(item[p.i:], prefix)...)
}

// removeElem returns src without element i of array arr, with the comma and
// whitespace that separated it.
func removeElem(src []byte, arr *node, i int) []byte {
	n := len(arr.elems)
	switch {
	case n == 1:
		return splice(src, arr.start, arr.end, []byte("[]"))
	case i > 0:
		return splice(src, arr.elems[i-1].end, arr.elems[i].end, nil)
	default:
		return splice(src, arr.elems[0].start, arr.elems[1].start, nil)
	}
}

// removeMember returns src without member i of object obj.
func removeMember(src []byte, obj *node, i int) []byte {
	n := len(obj.members)
	switch {
	case n == 1:
		return splice(src, obj.start, obj.end, []byte("{}"))
	case i > 0:
		return splice(src, obj.members[i-1].val.end, obj.members[i].val.end, nil)
	default:
		return splice(src, obj.members[0].keyStart, obj.members[1].keyStart, nil)
	}
}

// marshalNoEscape encodes v as JSON without HTML escaping, so paths with
// '&' or '<' stay readable.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
