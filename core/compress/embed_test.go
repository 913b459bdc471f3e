package compress

import (
	"context"
	"strings"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"testing"

	"github.com/vaultctx/vaultctx/core/embed"
)

// TestEmbedderSignal ranks with the real GloVe static model as a third
// signal: extracts stay deterministic and within budget, keep every
// must_keep string at the default budget, and the semantic list orders
// lines by meaning.
func TestEmbedderSignal(t *testing.T) {
	m, err := embed.Open(testkit.SharedDir("models/glove-120k"))
	if err != nil {
		t.Fatalf("open model: %v", err)
	}
	defer m.Close()
	opts := Options{ThresholdBytes: 1, BudgetTokens: 600, ContentBudgetTokens: 600, Embedder: m}
	for _, c := range loadCases(t) {
		req := c.Req
		req.Prompt = "why does the test fail with a panic or an error?"
		a := Condense(context.Background(), req, opts, testSavedPath)
		if b := Condense(context.Background(), req, opts, testSavedPath); a != b {
			t.Errorf("%s: not deterministic with an embedder", c.Name)
		}
		if n := len(a.Stdout) + len(a.Stderr); n > opts.BudgetTokens*CharsPerToken {
			t.Errorf("%s: %d bytes over budget", c.Name, n)
		}
		full := Condense(context.Background(), req, Options{ThresholdBytes: 1, Embedder: m}, testSavedPath)
		for _, mk := range c.Meta.MustKeep {
			if !strings.Contains(full.Stdout+"\n"+full.Stderr, normalizeText(mk)) {
				t.Errorf("%s: must_keep %q lost with an embedder", c.Name, mk)
			}
		}
	}
	ids := []int64{1, 2, 3}
	texts := []string{"the weather is sunny today", "panic: runtime error: index out of range", "downloading packages"}
	got := embedRank(context.Background(), m, ids, texts, "why does the program crash with an error")
	if len(got) != 3 || got[0] != 2 {
		t.Fatalf("embedRank = %v, want the crash line first", got)
	}
}
