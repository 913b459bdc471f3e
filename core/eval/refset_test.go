package eval

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// The curated reference set shipped with the repository and the vault it
// judges.
var largeQueries = filepath.Join("..", "..", "eval", "large-queries.jsonl")

func largeVault(tb testing.TB) string { return testkit.Shared(tb, "corpora/large") }

// headings returns the ATX heading texts of a markdown file outside fenced
// code blocks.
func headings(tb testing.TB, path string) map[string]bool {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	fence := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		trim := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trim, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			fence = trim[:3]
			continue
		}
		if level := len(trim) - len(strings.TrimLeft(trim, "#")); level >= 1 && level <= 6 && strings.HasPrefix(trim[level:], " ") {
			out[foldSection(strings.TrimRight(strings.TrimSpace(trim[level:]), "#"))] = true
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestLargeQueriesJudgments checks the curated set against the vault: every
// judged note exists, every judged section is a heading of its note, and
// the set has the size and mix its README promises.
func TestLargeQueriesJudgments(t *testing.T) {
	qs, err := ReadVaultQueries(largeQueries)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 50 || len(qs) > 100 {
		t.Errorf("%d queries, want 50 to 100", len(qs))
	}
	kinds := map[string]int{}
	for _, q := range qs {
		kinds[q.Kind]++
		for _, r := range q.Relevant {
			j, err := ParseJudgment(r)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(largeVault(t), filepath.FromSlash(j.Path))
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s: judged note %s: %v", q.ID, j.Path, err)
				continue
			}
			if j.Section != "" && !headings(t, p)[foldSection(j.Section)] {
				t.Errorf("%s: %s has no heading %q", q.ID, j.Path, j.Section)
			}
		}
	}
	for _, k := range []string{"identifier", "error", "concept", "multi"} {
		if kinds[k] < 10 {
			t.Errorf("%d %q queries, want at least 10", kinds[k], k)
		}
	}
	if len(kinds) != 4 {
		t.Errorf("kinds = %v, want only identifier, error, concept, multi", kinds)
	}
	if _, err := VaultSet("large-queries", qs); err != nil {
		t.Error(err)
	}
}
