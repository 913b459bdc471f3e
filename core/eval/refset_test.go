package eval

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// The curated reference sets shipped with the repository and the vault
// they judge.
var (
	largeQueries      = filepath.Join("..", "..", "eval", "large-queries.jsonl")
	paraphraseQueries = filepath.Join("..", "..", "eval", "paraphrase-queries.jsonl")
)

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
	qs := checkJudgments(t, largeQueries)
	if len(qs) < 50 || len(qs) > 100 {
		t.Errorf("%d queries, want 50 to 100", len(qs))
	}
	checkKinds(t, qs, 10, "identifier", "error", "concept", "multi")
	if _, err := VaultSet("large-queries", qs); err != nil {
		t.Error(err)
	}
}

// TestParaphraseQueriesJudgments checks the paraphrase set (issue 16) the
// same way: at least 70 questions, each judged note present in the vault,
// and the three topic kinds of eval/README.md with at least 15 each.
func TestParaphraseQueriesJudgments(t *testing.T) {
	qs := checkJudgments(t, paraphraseQueries)
	if len(qs) < 70 {
		t.Errorf("%d queries, want at least 70", len(qs))
	}
	checkKinds(t, qs, 15, "cpp", "powershell", "winserver")
	if _, err := VaultSet("paraphrase-queries", qs); err != nil {
		t.Error(err)
	}
}

// checkJudgments reads the reference set at file and reports every judged
// note that is missing from the large vault and every judged section that
// is not a heading of its note.
func checkJudgments(t *testing.T, file string) []VaultQuery {
	t.Helper()
	qs, err := ReadVaultQueries(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
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
	return qs
}

// checkKinds reports a kind of want with fewer than atLeast queries, and any
// kind outside want.
func checkKinds(t *testing.T, qs []VaultQuery, atLeast int, want ...string) {
	t.Helper()
	kinds := map[string]int{}
	for _, q := range qs {
		kinds[q.Kind]++
	}
	for _, k := range want {
		if kinds[k] < atLeast {
			t.Errorf("%d %q queries, want at least %d", kinds[k], k, atLeast)
		}
	}
	if len(kinds) != len(want) {
		t.Errorf("kinds = %v, want only %v", kinds, want)
	}
}
