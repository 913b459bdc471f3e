package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// VaultQuery is one line of a vault reference set (JSONL):
//
//	{"query": "...", "relevant": ["dir/note.md", "dir/other.md#Section"]}
//
// Relevant entries are vault-relative paths with forward slashes, optionally
// followed by "#" and the text of a heading of that note. ID and Kind are
// optional: ID names the query in reports (default "L<line>"), Kind tags it
// for breakdowns (e.g. "identifier", "error", "concept", "multi").
type VaultQuery struct {
	ID       string   `json:"id,omitempty"`
	Kind     string   `json:"kind,omitempty"`
	Query    string   `json:"query"`
	Relevant []string `json:"relevant"`
}

// Judgment is one parsed relevant entry of a VaultQuery: Path is the
// cleaned vault-relative path, Section the heading text or "" for the whole
// note.
type Judgment struct {
	Path    string
	Section string
}

// ParseJudgment splits "path" or "path#Section" (at the first "#") into a
// Judgment, trimming white space around both parts. The path must be relative, use forward slashes and not leave the vault; an empty
// section after "#" is an error.
func ParseJudgment(s string) (Judgment, error) {
	p, sec, hasSec := strings.Cut(s, "#")
	p, sec = strings.TrimSpace(p), strings.TrimSpace(sec)
	switch {
	case p == "":
		return Judgment{}, fmt.Errorf("relevant %q: empty path", s)
	case strings.Contains(p, `\`):
		return Judgment{}, fmt.Errorf("relevant %q: use forward slashes", s)
	case path.IsAbs(p) || filepath.IsAbs(p):
		return Judgment{}, fmt.Errorf("relevant %q: path must be relative to the vault", s)
	case hasSec && sec == "":
		return Judgment{}, fmt.Errorf("relevant %q: empty section after #", s)
	}
	c := cleanPath(p)
	if c == "" {
		return Judgment{}, fmt.Errorf("relevant %q: path names the vault itself, not a note", s)
	}
	if strings.TrimSpace(c) != c {
		return Judgment{}, fmt.Errorf("relevant %q: path ends in white space", s)
	}
	if c == ".." || strings.HasPrefix(c, "../") {
		return Judgment{}, fmt.Errorf("relevant %q: path leaves the vault", s)
	}
	return Judgment{Path: c, Section: sec}, nil
}

// ReadVaultQueries reads a vault reference set from path. Unknown fields, a
// missing query, an empty or malformed relevant list, a duplicate judgment,
// or one query judging both a whole note and a section of it (ambiguous
// granularity) is a *ParseError naming the file and line.
func ReadVaultQueries(path string) ([]VaultQuery, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read queries: %w", err)
	}
	defer f.Close()
	out, err := decodeVaultQueries(f, path)
	if err != nil {
		return nil, fmt.Errorf("read queries: %w", err)
	}
	return out, nil
}

// decodeVaultQueries parses a vault reference set from r (named file in
// errors).
func decodeVaultQueries(r io.Reader, file string) ([]VaultQuery, error) {
	var out []VaultQuery
	ids := map[string]int{}
	err := eachLine(r, file, func(line []byte, n int) error {
		var q VaultQuery
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&q); err != nil {
			return fmt.Errorf("bad JSON: %w", err)
		}
		if dec.More() {
			return errors.New("more than one JSON value on the line")
		}
		if strings.TrimSpace(q.Query) == "" {
			return errors.New(`missing or empty "query"`)
		}
		if len(q.Relevant) == 0 {
			return errors.New(`missing or empty "relevant"`)
		}
		if _, err := judgments(q.Relevant); err != nil {
			return err
		}
		if q.ID == "" {
			q.ID = fmt.Sprintf("L%d", n)
		}
		if prev, dup := ids[q.ID]; dup {
			return fmt.Errorf("id %q already used on line %d", q.ID, prev)
		}
		ids[q.ID] = n
		out = append(out, q)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// judgments parses and checks the relevant list of one query.
func judgments(relevant []string) ([]Judgment, error) {
	out := make([]Judgment, 0, len(relevant))
	whole := map[string]bool{}
	sectioned := map[string]bool{}
	seen := map[string]bool{}
	for _, r := range relevant {
		j, err := ParseJudgment(r)
		if err != nil {
			return nil, err
		}
		key := judgmentKey(j)
		if seen[key] {
			return nil, fmt.Errorf("relevant %q listed twice", r)
		}
		seen[key] = true
		if j.Section == "" {
			whole[j.Path] = true
		} else {
			sectioned[j.Path] = true
		}
		if whole[j.Path] && sectioned[j.Path] {
			return nil, fmt.Errorf("relevant %q: the query judges both the whole note and a section of it", r)
		}
		out = append(out, j)
	}
	return out, nil
}

// VaultSet returns the judged query set for Run, named name. Every judgment
// has grade 1. Hits are scored at the granularity of the judgments:
//
//   - a hit on a note judged as a whole ("dir/note.md") counts as that note,
//     so a note retrieved through several chunks counts once, at its best
//     rank, whatever the sections;
//   - a hit on a note with section judgments ("dir/note.md#Heading") counts
//     as that section: it is relevant when path and section both match
//     (see foldSection); a chunk of a long H2 split at an H3, whose
//     section reads "H2 > H3" (SubsectionSeparator), counts as its H2, so
//     "note.md#Remarks" is found by a hit in "Remarks > Example". Another
//     section of the note is a separate, non-relevant unit;
//   - a hit on any other note counts as that note (not relevant), once.
//
// Queries are assumed valid (as returned by ReadVaultQueries); an invalid
// judgment is an error.
func VaultSet(name string, queries []VaultQuery) (*Set, error) {
	s := &Set{Name: name}
	for _, q := range queries {
		js, err := judgments(q.Relevant)
		if err != nil {
			return nil, fmt.Errorf("vault set: query %q: %w", q.ID, err)
		}
		grades := Grades{}
		sections := map[string]map[string]bool{} // path -> folded judged sections
		for _, j := range js {
			grades[judgmentKey(j)] = 1
			if j.Section != "" {
				if sections[j.Path] == nil {
					sections[j.Path] = map[string]bool{}
				}
				sections[j.Path][foldSection(j.Section)] = true
			}
		}
		keyOf := func(h Hit) string {
			p := cleanPath(h.Path)
			judged := sections[p]
			if judged == nil {
				return p
			}
			sec := foldSection(h.Section)
			if h2, _, ok := strings.Cut(sec, SubsectionSeparator); ok && !judged[sec] && judged[h2] {
				sec = h2 // a chunk of the judged H2 split at an H3
			}
			return p + "#" + sec
		}
		s.Queries = append(s.Queries, SetQuery{ID: q.ID, Kind: q.Kind, Text: q.Query, Grades: grades, keyOf: keyOf})
	}
	return s, nil
}

// SubsectionSeparator joins an H2 and an H3 heading in the section name of a
// chunk that was split at H3 headings (see core/chunk).
const SubsectionSeparator = " > "

// judgmentKey is the unit key of a judgment: the path, or path + "#" + the
// folded section.
func judgmentKey(j Judgment) string {
	if j.Section == "" {
		return j.Path
	}
	return j.Path + "#" + foldSection(j.Section)
}

// foldSection is the form in which two section names are compared: trimmed,
// runs of white space collapsed, lower-cased ("Remarks" matches " remarks ").
func foldSection(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// cleanPath normalises a vault-relative path: forward slashes, no "./",
// no redundant separators.
func cleanPath(p string) string {
	p = path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if p == "." {
		return ""
	}
	return p
}
