package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// NoteIDs maps the vault-relative path of a note written by WriteVault
// ("4983.md") to the corpus id of its document.
type NoteIDs map[string]string

// maxNoteName is the longest note file name WriteVault produces, in bytes,
// before the collision suffix and ".md".
const maxNoteName = 120

// WriteVault writes every document of ds as one markdown note into dir
// (created if missing) so the real indexer can index the corpus:
//
//	<name>.md:  "# <title>\n\n<text>\n"
//
// The title becomes the H1 and thereby the note's title and heading context;
// line breaks in it become spaces, and a document without a title is written
// as "\n<text>\n" (the leading blank line keeps a text that starts with
// "---" from being read as frontmatter). <name> is the id cut to 120 bytes
// with every byte outside [A-Za-z0-9_-] turned into "_" (dots too, so no
// name is hidden); ids that collide after that, compared
// case-insensitively for case-insensitive file systems, get "~2", "~3", ...
// in corpus order. The returned NoteIDs maps each file name back to its id.
//
// It checks ctx between files and returns ctx.Err() when cancelled.
func WriteVault(ctx context.Context, ds *Dataset, dir string) (NoteIDs, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("write vault: %w", err)
	}
	notes := make(NoteIDs, len(ds.Docs))
	taken := make(map[string]bool, len(ds.Docs))
	var b strings.Builder
	for i, d := range ds.Docs {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("write vault: %w", err)
			}
		}
		base := noteName(d.ID)
		name := base + ".md"
		for n := 2; taken[strings.ToLower(name)]; n++ {
			name = base + "~" + strconv.Itoa(n) + ".md"
		}
		taken[strings.ToLower(name)] = true
		notes[name] = d.ID

		b.Reset()
		if title := strings.Join(strings.Fields(d.Title), " "); title != "" {
			b.WriteString("# ")
			b.WriteString(title)
			b.WriteString("\n")
		}
		b.WriteString("\n")
		b.WriteString(strings.TrimSpace(d.Text))
		b.WriteString("\n")
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			return nil, fmt.Errorf("write vault: %w", err)
		}
	}
	return notes, nil
}

// noteName turns a corpus id into a safe file name stem (see WriteVault).
func noteName(id string) string {
	b := []byte(id)
	if len(b) > maxNoteName {
		b = b[:maxNoteName]
	}
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
		default:
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

// BEIRSet returns the judged query set of ds for Run: one query per judged
// query of ds, graded by ds.Qrels. A hit counts as the document whose note
// (per notes, from WriteVault) it came from, whatever its section, so a
// document retrieved through several chunks counts once, at its best rank;
// a hit on a file notes does not know counts as a non-relevant unit of its
// own. The set is named "<name>/<split>", with "@<n>" appended for a subset.
func BEIRSet(ds *Dataset, notes NoteIDs) *Set {
	name := ds.Name + "/" + ds.Split
	if ds.DocBudget > 0 {
		name += "@" + strconv.Itoa(ds.DocBudget)
	}
	keyOf := func(h Hit) string {
		p := cleanPath(h.Path)
		if id, ok := notes[p]; ok {
			return id
		}
		return "\x00file:" + p // cannot equal a corpus id judged relevant
	}
	s := &Set{Name: name}
	for _, q := range ds.Queries {
		s.Queries = append(s.Queries, SetQuery{ID: q.ID, Text: q.Text, Grades: ds.Qrels[q.ID], keyOf: keyOf})
	}
	return s
}
