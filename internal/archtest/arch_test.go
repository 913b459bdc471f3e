package archtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// row is one line of the dependency table.
type row struct {
	pkg  string   // path in the module, e.g. core/store
	deps []string // sorted "depends on" items
	line int
}

// remark is a parenthesised note after a dependency, e.g. "(TrimText)".
var remark = regexp.MustCompile(`\s*\([^)]*\)`)

// readTable parses the first table whose header is | package | provides |
// depends on |. Cells may quote names in backticks; "–" or "-" means none.
func readTable(tb testing.TB, path string) []row {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var rows []row
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case !in && len(cells) == 3 && cells[0] == "package" && cells[1] == "provides" && cells[2] == "depends on":
			in = true
		case in && strings.HasPrefix(line, "|---"):
		case in && strings.HasPrefix(line, "|") && len(cells) == 3:
			r := row{pkg: strings.Trim(cells[0], "`"), line: n}
			for _, d := range strings.Split(remark.ReplaceAllString(cells[2], ""), ",") {
				d = strings.Trim(strings.TrimSpace(d), "`")
				if d != "" && d != "–" && d != "-" {
					r.deps = append(r.deps, d)
				}
			}
			slices.Sort(r.deps)
			rows = append(rows, r)
		case in:
			return rows
		}
	}
	if len(rows) == 0 {
		tb.Fatalf("%s: no | package | provides | depends on | table", path)
	}
	return rows
}

// listed is what go list says of one package.
type listed struct {
	ImportPath string
	Imports    []string
	Standard   bool
	Module     *struct{ Path string }
}

// goList runs go list -deps -json ./... from the repository root with the
// sqlite_fts5 tag.
func goList(tb testing.TB, root string) []listed {
	tb.Helper()
	cmd := exec.Command("go", "list", "-deps", "-tags", "sqlite_fts5", "-json=ImportPath,Imports,Standard,Module", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("go list: %v", err)
	}
	var ps []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			tb.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

func TestDependencyTable(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	root := testkit.Root(t)
	rows := readTable(t, filepath.Join(root, "docs", "ARCHITECTURE.md"))

	all := goList(t, root)
	byPath := map[string]listed{}
	for _, p := range all {
		byPath[p.ImportPath] = p
	}
	cmd := exec.Command("go", "list", "-m")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	module := strings.TrimSpace(string(out))
	rel := func(path string) (string, bool) {
		if r, ok := strings.CutPrefix(path, module+"/"); ok {
			return r, true
		}
		return "", false
	}
	// dep names an import as the table does: a project package by its path
	// in the module, a third-party one by its module path without the host.
	dep := func(imp string) (string, bool) {
		if r, ok := rel(imp); ok {
			return r, true
		}
		p := byPath[imp]
		if p.Standard || p.Module == nil {
			return "", false
		}
		_, name, _ := strings.Cut(p.Module.Path, "/")
		return name, true
	}

	inTable := map[string]bool{}
	for _, r := range rows {
		if inTable[r.pkg] {
			t.Errorf("ARCHITECTURE.md:%d: %s has two rows", r.line, r.pkg)
		}
		inTable[r.pkg] = true
		p, ok := byPath[module+"/"+r.pkg]
		if !ok {
			t.Errorf("ARCHITECTURE.md:%d: %s is not a package of this module", r.line, r.pkg)
			continue
		}
		var want []string
		for _, imp := range p.Imports {
			if d, ok := dep(imp); ok && !slices.Contains(want, d) {
				want = append(want, d)
			}
		}
		slices.Sort(want)
		if !slices.Equal(r.deps, want) {
			t.Errorf("ARCHITECTURE.md:%d: %s depends on %q, the table says %q", r.line, r.pkg, want, r.deps)
		}
	}
	for _, p := range all {
		r, ok := rel(p.ImportPath)
		if ok && (strings.HasPrefix(r, "core/") || strings.HasPrefix(r, "internal/")) && !inTable[r] {
			t.Errorf("%s has no row in docs/ARCHITECTURE.md's dependency table", r)
		}
	}
}

func TestReadTable(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.md")
	doc := "# x\n\n| package | provides | depends on |\n|---|---|---|\n" +
		"| `core/a` | a thing | – |\n" +
		"| `core/b` | b | `core/a`, tidwall/gjson (Get), `x/text` |\n\nafter\n| not | a | row |\n"
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	got := readTable(t, p)
	want := []row{{"core/a", nil, 5}, {"core/b", []string{"core/a", "tidwall/gjson", "x/text"}, 6}}
	if len(got) != len(want) {
		t.Fatalf("rows = %+v", got)
	}
	for i := range want {
		if got[i].pkg != want[i].pkg || !slices.Equal(got[i].deps, want[i].deps) || got[i].line != want[i].line {
			t.Errorf("row %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
