package note

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/adrg/frontmatter"
)

// meta is the part of a frontmatter block that vaultctx uses.
type meta struct {
	title, typ    string
	tags, aliases []string
}

// merge fills empty scalars from o and appends o's lists.
func (m *meta) merge(o meta) {
	if m.title == "" {
		m.title = o.title
	}
	if m.typ == "" {
		m.typ = o.typ
	}
	m.tags = append(m.tags, o.tags...)
	m.aliases = append(m.aliases, o.aliases...)
}

// fmKind names the frontmatter syntax of a block.
type fmKind uint8

const (
	fmNone fmKind = iota
	fmYAML
	fmTOML
)

func (k fmKind) String() string {
	if k == fmTOML {
		return "TOML"
	}
	return "YAML"
}

// openFence recognises the first line of a frontmatter block and returns
// its syntax and the line that closes it.
func openFence(line string) (fmKind, string) {
	switch strings.TrimRight(line, " \t") {
	case "---", "---yaml":
		return fmYAML, "---"
	case "+++":
		return fmTOML, "+++"
	case "---toml":
		return fmTOML, "---"
	}
	return fmNone, ""
}

// cutLine splits s after its first line; line has no '\n'.
func cutLine(s string) (line, rest string) {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// block is one fenced frontmatter block found at the start of some text.
type block struct {
	kind   fmKind
	raw    string // from the opening line through the closing line, for the decoder
	inner  string // the lines between the fences
	after  string // the text after the closing line
	closed bool
}

// findBlock looks for a frontmatter block starting on the first line of s.
func findBlock(s string) (block, bool) {
	first, rest := cutLine(s)
	kind, closer := openFence(first)
	if kind == fmNone {
		return block{}, false
	}
	b := block{kind: kind, after: rest}
	pos := 0
	for pos < len(rest) {
		line, _ := cutLine(rest[pos:])
		next := pos + len(line) + 1
		if next > len(rest) {
			next = len(rest)
		}
		if strings.TrimRight(line, " \t") == closer {
			b.inner = rest[:pos]
			b.after = rest[next:]
			b.raw = s[:len(first)+1+next]
			b.closed = true
			return b, true
		}
		pos = next
	}
	return b, true
}

// decodeResult says how a closed block decoded.
type decodeResult uint8

const (
	decodedMapping decodeResult = iota // key/value data (possibly empty)
	decodedOther                       // valid syntax but not a mapping: a letterhead
	decodeFailed
)

// decode reads a closed block with github.com/adrg/frontmatter (YAML via
// gopkg.in/yaml.v2, TOML via BurntSushi/toml) into meta.
func (b block) decode() (meta, decodeResult, error) {
	if strings.TrimSpace(b.inner) == "" {
		return meta{}, decodedMapping, nil
	}
	if b.kind == fmYAML {
		if m, ok := fastYAML(b.inner); ok {
			return m, decodedMapping, nil
		}
	}
	return b.decodeFull()
}

// decodeFull is decode without the fast path: the reference that
// fastYAML must agree with.
func (b block) decodeFull() (meta, decodeResult, error) {
	var v any
	if _, err := frontmatter.MustParse(strings.NewReader(b.raw), &v); err != nil {
		return meta{}, decodeFailed, err
	}
	m, ok := asMap(v)
	if !ok {
		return meta{}, decodedOther, nil
	}
	return metaFromMap(m), decodedMapping, nil
}

// asMap converts the top level of decoded YAML or TOML to a string-keyed map.
func asMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case map[any]any:
		out := make(map[string]any, len(m))
		for k, x := range m {
			out[fmt.Sprint(k)] = x
		}
		return out, true
	case nil:
		return map[string]any{}, true
	}
	return nil, false
}

// lookup returns the value of the first of names present in m, comparing
// keys case-insensitively (Obsidian treats "Tags" and "tags" alike). Keys
// are visited in sorted order so the result is deterministic.
func lookup(m map[string]any, names ...string) any {
	for _, n := range names {
		if v, ok := m[n]; ok {
			return v
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, n := range names {
		for _, k := range keys {
			if strings.EqualFold(strings.TrimSpace(k), n) {
				return m[k]
			}
		}
	}
	return nil
}

func metaFromMap(m map[string]any) meta {
	var out meta
	out.title = scalar(lookup(m, "title"))
	out.typ = scalar(lookup(m, "type"))
	tags := lookup(m, "tags", "tag")
	if tags == nil {
		// Zola and Hugo keep tags under [taxonomies].
		if tax, ok := asMap(lookup(m, "taxonomies")); ok {
			tags = lookup(tax, "tags", "tag")
		}
	}
	out.tags = tagList(tags)
	out.aliases = aliasList(lookup(m, "aliases", "alias"))
	return out
}

// scalar renders a string, number, boolean or date, or the first such
// element of a list; anything else gives "".
func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(x)
	case time.Time:
		return x.Format(time.RFC3339)
	case []any:
		for _, e := range x {
			if s := scalar(e); s != "" {
				return s
			}
		}
		return ""
	case map[any]any, map[string]any:
		return ""
	}
	return strings.TrimSpace(fmt.Sprint(v))
}

// strs flattens a scalar or a list of scalars.
func strs(v any) []string {
	switch x := v.(type) {
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			if _, nested := e.([]any); nested {
				continue
			}
			if s := scalar(e); s != "" {
				out = append(out, s)
			}
		}
		return out
	case []string:
		return x
	}
	if s := scalar(v); s != "" {
		return []string{s}
	}
	return nil
}

// tagList reads frontmatter tags: a list or a string of tags separated by
// commas or white space; a leading '#' is stripped and nested a/b kept.
func tagList(v any) []string {
	var out []string
	for _, s := range strs(v) {
		for _, t := range strings.FieldsFunc(s, func(r rune) bool {
			return r == ',' || r == ' ' || r == '\t' || r == '\n'
		}) {
			if t = cleanTag(t); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// cleanTag strips leading '#'s and surrounding quotes and slashes.
func cleanTag(t string) string {
	t = strings.Trim(t, " \t\"'")
	t = strings.TrimLeft(t, "#")
	return strings.Trim(t, "/")
}

// aliasList reads aliases: a list, or a string of comma-separated aliases
// (as Obsidian reads "aliases: a, b").
func aliasList(v any) []string {
	var out []string
	for _, s := range strs(v) {
		if _, isList := v.([]any); isList {
			out = append(out, s)
			continue
		}
		for _, a := range strings.Split(s, ",") {
			if a = strings.Trim(a, " \t\"'"); a != "" {
				out = append(out, a)
			}
		}
	}
	return out
}

// salvage reads key/value lines from a block that failed to decode. Lines
// it recognises as title, type, tags or aliases (with their list items)
// become meta; every other line is returned as text, so nothing the author
// wrote is lost.
func salvage(kind fmKind, inner string) (meta, string) {
	var (
		m       meta
		kept    strings.Builder
		cur     string // the recognised key whose list items may follow
		curVals []string
	)
	flush := func() {
		switch cur {
		case "title":
			if m.title == "" && len(curVals) > 0 {
				m.title = curVals[0]
			}
		case "type":
			if m.typ == "" && len(curVals) > 0 {
				m.typ = curVals[0]
			}
		case "tags", "tag":
			m.tags = append(m.tags, tagList(anyList(curVals))...)
		case "aliases", "alias":
			for _, v := range curVals {
				m.aliases = append(m.aliases, aliasList(v)...)
			}
		}
		cur, curVals = "", nil
	}
	for rest := inner; rest != ""; {
		var line string
		line, rest = cutLine(rest)
		if cur != "" && isListItem(line) {
			item := strings.TrimSpace(line)
			item = strings.TrimSpace(strings.TrimPrefix(item, "-"))
			curVals = append(curVals, unquote(item))
			continue
		}
		flush()
		if key, val, ok := keyValue(kind, line); ok {
			switch strings.ToLower(key) {
			case "title", "type", "tags", "tag", "aliases", "alias":
				cur = strings.ToLower(key)
				if val != "" {
					curVals = append(curVals, listValues(val)...)
				}
				continue
			}
		}
		kept.WriteString(line)
		kept.WriteByte('\n')
	}
	flush()
	return m, kept.String()
}

func anyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// isListItem reports an indented line or a "- item" line.
func isListItem(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return strings.HasPrefix(t, "- ") || t == "-" || (len(t) > 0 && len(t) < len(line))
}

// keyValue splits "key: value" (YAML) or "key = value" (TOML) lines whose
// key is short and starts the line.
func keyValue(kind fmKind, line string) (key, val string, ok bool) {
	if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-' {
		return "", "", false
	}
	sep := ":"
	if kind == fmTOML {
		sep = "="
	}
	i := strings.Index(line, sep)
	if i <= 0 || i > 64 {
		return "", "", false
	}
	if kind == fmYAML && i+1 < len(line) && line[i+1] != ' ' && line[i+1] != '\t' {
		return "", "", false
	}
	key = strings.Trim(strings.TrimSpace(line[:i]), "\"'")
	return key, strings.TrimSpace(line[i+1:]), key != ""
}

// listValues reads a flow list "[a, b]" or a single, possibly quoted, value.
func listValues(v string) []string {
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		var out []string
		for _, e := range strings.Split(v[1:len(v)-1], ",") {
			if e = unquote(strings.TrimSpace(e)); e != "" {
				out = append(out, e)
			}
		}
		return out
	}
	return []string{unquote(v)}
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// readFrontmatter separates the frontmatter from the body of text (already
// decoded). See the package documentation for how broken blocks are read.
func readFrontmatter(text string) (m meta, body string, problems []string) {
	b, ok := findBlock(text)
	if !ok {
		return meta{}, text, nil
	}
	if !b.closed {
		return meta{}, b.after, []string{fmt.Sprintf(
			"unclosed %s frontmatter: no closing line; read as body text", b.kind)}
	}
	m, body, problem, isMeta := readBlock(b)
	if problem != "" {
		problems = append(problems, problem)
	}
	if !isMeta {
		return m, body, problems
	}
	// Stacked blocks: another block right after the first (blank lines
	// between are allowed) that reads as key/value data is merged.
	for i := 0; i < 8; i++ {
		next := strings.TrimLeft(body, " \t\n")
		nb, ok := findBlock(next)
		if !ok || !nb.closed {
			break
		}
		nm, nbody, nproblem, nIsMeta := readBlock(nb)
		if !nIsMeta {
			break
		}
		m.merge(nm)
		body = nbody
		if nproblem == "" {
			// A valid second block may still be body text that merely looks
			// like YAML ("Status: done" between two rules): keep every line
			// that is not one of the keys read into the note.
			_, kept := salvage(nb.kind, nb.inner)
			body = kept + nb.after
		}
		problems = append(problems, fmt.Sprintf("stacked frontmatter: %s block %d merged into the first", nb.kind, i+2))
		if nproblem != "" {
			problems = append(problems, nproblem)
		}
	}
	return m, body, problems
}

// readBlock reads one closed block. isMeta is false for a letterhead (a
// block that is not key/value data), whose lines are returned as body text.
func readBlock(b block) (m meta, body, problem string, isMeta bool) {
	m, res, err := b.decode()
	switch res {
	case decodedMapping:
		return m, b.after, "", true
	case decodedOther:
		return meta{}, b.inner + b.after,
			fmt.Sprintf("frontmatter is not %s key/value data (a letterhead?); read as body text", b.kind), false
	}
	sm, kept := salvage(b.kind, b.inner)
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if !hasKeyLine(b.kind, b.inner) {
		return meta{}, b.inner + b.after,
			fmt.Sprintf("frontmatter is not %s key/value data (a letterhead?): %s; read as body text", b.kind, msg), false
	}
	return sm, kept + b.after,
		fmt.Sprintf("invalid %s frontmatter: %s; title, type, tags and aliases salvaged, other lines kept as body text", b.kind, msg), true
}

// hasKeyLine reports whether any line of inner looks like a key/value line.
func hasKeyLine(kind fmKind, inner string) bool {
	for rest := inner; rest != ""; {
		var line string
		line, rest = cutLine(rest)
		if _, _, ok := keyValue(kind, line); ok {
			return true
		}
	}
	return false
}
