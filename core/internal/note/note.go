package note

import (
	"fmt"
	"path"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Note is one parsed markdown file.
type Note struct {
	// Title is the frontmatter title, else the first ATX or setext H1 of
	// the body (outside code fences), else the file name without its
	// extension.
	Title string
	// Type is the frontmatter "type" value, or "".
	Type string
	// Tags are the frontmatter tags (a list or a string; '#' stripped,
	// nested a/b kept) followed by the inline #tags of the body, without
	// duplicates (compared case-insensitively, first spelling kept), in
	// order of first appearance.
	Tags []string
	// Aliases are the frontmatter aliases (a list, or a comma-separated
	// string), without duplicates.
	Aliases []string
	// Body is the text after the frontmatter: NFC, LF line endings, no BOM.
	// For broken frontmatter it holds every line that could not be read as
	// metadata (see the package documentation).
	Body string
	// Problems describes, one per entry, what was wrong with the file
	// (invalid UTF-8, invalid or unclosed frontmatter, a letterhead,
	// stacked blocks, an unclosed code fence). They are never fatal.
	Problems []string
}

// Parse reads one markdown file. relPath is its vault-relative path with
// forward slashes; only its base name is used, for the fallback title.
// Parse never fails and never panics: whatever the input, the note's text
// ends up in Body and what went wrong in Problems.
func Parse(relPath string, raw []byte) Note {
	text, problems := Decode(raw)
	m, body, fmProblems := readFrontmatter(text)
	problems = append(problems, fmProblems...)

	info := scanBody(body)
	if info.unclosedFence > 0 {
		problems = append(problems, fmt.Sprintf("unclosed code fence opened at body line %d", info.unclosedFence))
	}
	n := Note{
		Title:    m.title,
		Type:     m.typ,
		Tags:     dedupe(append(m.tags, info.tags...)),
		Aliases:  dedupe(m.aliases),
		Body:     body,
		Problems: problems,
	}
	if n.Title == "" {
		n.Title = info.h1
	}
	if n.Title == "" {
		n.Title = stem(relPath)
	}
	return n
}

// stem is the base name of p without its extension, in valid UTF-8 NFC.
func stem(p string) string {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	if base == "." || base == "/" {
		return ""
	}
	if ext := path.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	return norm.NFC.String(strings.ToValidUTF8(base, "\uFFFD"))
}

// dedupe drops empty strings and case-insensitive repeats, keeping the
// first spelling and the order.
func dedupe(in []string) []string {
	if len(in) == 0 {
		return nil
	}
	seen := make(map[string]bool, len(in))
	out := make([]string, 0, len(in))
	for _, s := range in {
		s = strings.TrimSpace(s)
		k := strings.ToLower(s)
		if s == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, s)
	}
	return out
}

// HeadingContext returns "Title | type | tag1, tag2", leaving out empty
// parts and their separators ("Title | tag1" without a type, "" for an
// empty note). Frontmatter aliases follow the title in parentheses,
// "Title (alias1, alias2) | type | tag1", so a note is found by any of its
// names. It is stored and indexed with every chunk of the note.
func (n Note) HeadingContext() string {
	tags := n.Tags
	if len(tags) > MaxContextTags {
		tags = tags[:MaxContextTags]
	}
	title := strings.TrimSpace(n.Title)
	var aliases []string
	for _, a := range n.Aliases {
		if a = strings.TrimSpace(a); a != "" && !strings.EqualFold(a, title) && len(aliases) < MaxContextTags {
			aliases = append(aliases, a)
		}
	}
	if len(aliases) > 0 {
		title = strings.TrimSpace(title + " (" + strings.Join(aliases, ", ") + ")")
	}
	parts := make([]string, 0, 3)
	for _, p := range []string{title, strings.TrimSpace(n.Type), strings.Join(tags, ", ")} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	hc := strings.Join(parts, " | ")
	if r := []rune(hc); len(r) > MaxContextRunes {
		hc = string(r[:MaxContextRunes-1]) + "…"
	}
	return hc
}

// MaxContextTags and MaxContextRunes bound the heading context, which is
// stored and indexed once per chunk: a note with thousands of inline tags
// must not multiply into every one of its chunks.
const (
	MaxContextTags  = 32
	MaxContextRunes = 400
)
