package note

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/adrg/frontmatter"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/internal/testkit/golden"
)

// edgeFile is one row of corpora/edge/SOURCES.tsv.
type edgeFile struct {
	name, category string
}

func edgeFiles(t testing.TB) []edgeFile {
	t.Helper()
	f, err := os.Open(testkit.Shared(t, "corpora/edge/SOURCES.tsv"))
	if err != nil {
		t.Fatalf("edge corpus: %v", err)
	}
	defer f.Close()
	var out []edgeFile
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 2 || cols[0] == "file" {
			continue
		}
		out = append(out, edgeFile{name: cols[0], category: cols[1]})
	}
	if len(out) == 0 {
		t.Fatal("edge corpus: SOURCES.tsv lists no files")
	}
	return out
}

func readShared(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(testkit.Shared(t, rel))
	if err != nil {
		t.Fatalf("read %s: %v", rel, err)
	}
	return b
}

// frontLines returns the lines between the first two delimiter lines of
// text, or nil.
func frontLines(text, delim string) []string {
	lines := strings.Split(text, "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != delim {
		return nil
	}
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == delim {
			return lines[1:i]
		}
	}
	return nil
}

// TestEdgeCorpus parses every file of corpora/edge and checks what its
// category in SOURCES.tsv promises.
func TestEdgeCorpus(t *testing.T) {
	for _, ef := range edgeFiles(t) {
		t.Run(ef.name, func(t *testing.T) {
			raw := readShared(t, "corpora/edge/"+ef.name)
			n := Parse(ef.name, raw)
			checkNote(t, n)
			text, _ := Decode(raw)
			cat := ef.category

			if strings.HasPrefix(cat, "bom") && !strings.HasPrefix(string(raw), "\xEF\xBB\xBF") {
				t.Fatalf("category %s but the file has no BOM", cat)
			}
			if cat == "crlf" && !strings.Contains(string(raw), "\r\n") {
				t.Fatalf("category %s but the file has no CRLF", cat)
			}

			switch {
			case strings.HasPrefix(cat, "invalid_yaml"):
				if !hasProblem(n, "invalid YAML") {
					t.Errorf("Problems = %q, want an invalid YAML problem", n.Problems)
				}
				// Every line of the broken block is kept, except the keys
				// that were read into the note.
				block := frontLines(text, "---")
				if block == nil {
					t.Fatal("no frontmatter block found by the test")
				}
				for _, l := range block {
					key, _, _ := strings.Cut(l, ":")
					switch strings.ToLower(key) {
					case "title", "type", "tags", "aliases":
						continue
					}
					if !strings.Contains(n.Body, l) {
						t.Errorf("line %q of the broken block is missing from Body", l)
					}
				}
				if n.Title == stem(ef.name) {
					t.Errorf("Title = %q: the title key was not salvaged", n.Title)
				}
			case cat == "empty_file":
				if n.Body != "" || n.Title != stem(ef.name) || len(n.Problems) > 0 {
					t.Errorf("empty file: %+v", n)
				}
			default:
				if len(n.Problems) > 0 {
					t.Errorf("Problems = %q, want none", n.Problems)
				}
				// Without problems the body is the decoded text minus a
				// leading frontmatter block, nothing else.
				if !strings.HasSuffix(text, n.Body) {
					t.Errorf("Body is not a suffix of the decoded text")
				}
				for _, delim := range []string{"---", "+++"} {
					if block := frontLines(text, delim); block != nil {
						if strings.HasPrefix(n.Body, delim) {
							t.Errorf("frontmatter left in Body")
						}
						for _, l := range block {
							if v, ok := strings.CutPrefix(l, "title"); ok && strings.TrimLeft(v, " =:") != "" {
								want := strings.Trim(strings.TrimLeft(v, " =:"), `"' `)
								if n.Title != want {
									t.Errorf("Title = %q, want frontmatter title %q", n.Title, want)
								}
							}
						}
					}
				}
			}
			if strings.HasPrefix(cat, "no_trailing_newline") {
				lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
				if last := lines[len(lines)-1]; !strings.HasSuffix(n.Body, last) {
					t.Errorf("last line %q lost", last)
				}
			}
		})
	}
}

// TestObsidianVault parses every note of a real Obsidian vault and checks
// the tags and aliases against an independent decode of the frontmatter
// with adrg/frontmatter over the whole file.
func TestObsidianVault(t *testing.T) {
	root := testkit.Shared(t, "corpora/obsidian/tasks-demo-vault")
	var files int
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		files++
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		n := Parse(filepath.ToSlash(rel), raw)
		checkNote(t, n)
		if len(n.Problems) > 0 {
			t.Errorf("%s: Problems = %q", rel, n.Problems)
		}
		var fm map[string]any
		if _, err := frontmatter.Parse(strings.NewReader(string(raw)), &fm); err != nil {
			return nil
		}
		for key, v := range fm {
			lk := strings.ToLower(key)
			list, _ := v.([]any)
			for _, e := range list {
				s, ok := e.(string)
				if !ok || s == "" {
					continue
				}
				switch lk {
				case "tags", "tag":
					if !slices.ContainsFunc(n.Tags, func(x string) bool { return strings.EqualFold(x, strings.TrimLeft(s, "#")) }) {
						t.Errorf("%s: tag %q missing from %q", rel, s, n.Tags)
					}
				case "aliases", "alias":
					if !slices.Contains(n.Aliases, s) {
						t.Errorf("%s: alias %q missing from %q", rel, s, n.Aliases)
					}
				}
			}
		}
		// A task line "- [ ] #task ..." outside code always yields the tag.
		if strings.HasPrefix(n.Body, "- [ ] #task ") || strings.Contains(n.Body, "\n- [ ] #task ") {
			if !strings.Contains(n.Body, "```") && !slices.Contains(n.Tags, "task") {
				t.Errorf("%s: tag task missing from %q", rel, n.Tags)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d vault files found", files)
	}
}

// largeSample returns every step-th markdown file of corpora/large.
func largeSample(t testing.TB, step int) []string {
	t.Helper()
	var out []string
	i := 0
	root := testkit.Shared(t, "corpora/large")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		if i%step == 0 {
			out = append(out, p)
		}
		i++
		return nil
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("large corpus: %d files, %v", len(out), err)
	}
	return out
}

func TestLargeCorpusSample(t *testing.T) {
	for _, p := range largeSample(t, 40) {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n := Parse(filepath.Base(p), raw)
		checkNote(t, n)
		if n.Title == "" {
			t.Errorf("%s: empty title", p)
		}
		// These docs all carry YAML frontmatter; a clean parse strips it.
		if len(n.Problems) == 0 && strings.HasPrefix(string(raw), "---") && strings.HasPrefix(n.Body, "---") {
			t.Errorf("%s: frontmatter left in the body", p)
		}
	}
}

// goldenNote is what the golden files record of a note.
type goldenNote struct {
	Title          string   `json:"title"`
	Type           string   `json:"type,omitempty"`
	Tags           []string `json:"tags,omitempty"`
	Aliases        []string `json:"aliases,omitempty"`
	Problems       []string `json:"problems,omitempty"`
	HeadingContext string   `json:"heading_context"`
	BodyRunes      int      `json:"body_runes"`
	BodyStart      string   `json:"body_start"`
	BodyEnd        string   `json:"body_end"`
}

// goldenFiles are the real files with golden output: all of the edge
// corpus plus a few vault notes and large-corpus docs.
func goldenFiles(t testing.TB) []string {
	var files []string
	for _, ef := range edgeFiles(t) {
		files = append(files, "corpora/edge/"+ef.name)
	}
	return append(files,
		"corpora/obsidian/tasks-demo-vault/Test Data/yaml_complex_example.md",
		"corpora/obsidian/tasks-demo-vault/Test Data/yaml_all_property_types_populated.md",
		"corpora/obsidian/tasks-demo-vault/Test Data/yaml_aliases_with_two_values_on_one_line.md",
		"corpora/obsidian/tasks-demo-vault/Test Data/yaml_tags_with_two_values_on_one_line.md",
		"corpora/obsidian/tasks-demo-vault/Styling/Sample Tasks for Styling Documentation.md",
		"corpora/obsidian/tasks-demo-vault/Manual Testing/654 - Unable to find section, when title has tag inside.md",
		"corpora/large/PowerShell-Docs/reference/7.4/Microsoft.PowerShell.Core/ForEach-Object.md",
		"corpora/large/cpp-docs/docs/standard-library/range-adaptors.md",
	)
}

func goldenName(rel string) string {
	r := strings.NewReplacer("/", "__", " ", "_", ",", "")
	return filepath.Join("testdata", "golden", r.Replace(strings.TrimPrefix(rel, "corpora/"))+".json")
}

func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

func lastRunes(s string, n int) string {
	i := len(s)
	for i > 0 && n > 0 {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		n--
	}
	return s[i:]
}

// TestGolden compares Parse on real files with testdata/golden. Refresh
// with: go test ./core/note -run TestGolden -update
func TestGolden(t *testing.T) {
	for _, rel := range goldenFiles(t) {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			n := Parse(filepath.Base(rel), readShared(t, rel))
			got, err := json.MarshalIndent(goldenNote{
				Title: n.Title, Type: n.Type, Tags: n.Tags, Aliases: n.Aliases, Problems: n.Problems,
				HeadingContext: n.HeadingContext(), BodyRunes: utf8.RuneCountInString(n.Body),
				BodyStart: firstRunes(n.Body, 160), BodyEnd: lastRunes(n.Body, 80),
			}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := goldenName(rel)
			golden.Check(t, path, got)
		})
	}
}
