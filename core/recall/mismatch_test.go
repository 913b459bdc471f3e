package recall

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/vault"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// TestModelMismatchLine indexes the edge corpus with one Model2Vec fixture
// and answers a prompt with the config naming another of the same
// dimension (float32 against float16 weights: equal shapes, other hashes).
// The hook must say on stderr that vector search is off and answer with
// BM25 alone, as it must for a configured model that does not open; with
// the index's own model it must say nothing.
func TestModelMismatchLine(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	built := testkit.Shared(t, "models", "m2v-fixtures", "float32")
	other := testkit.Shared(t, "models", "m2v-fixtures", "float16")
	db := filepath.Join(t.TempDir(), "index.db")
	if _, err := index.Run(context.Background(), index.Options{
		Vault: testkit.Shared(t, "corpora", "edge"), DB: db, Full: true, ModelDir: built,
		Rules: vault.Rules{MaxFileBytes: 5 << 20},
	}); err != nil {
		t.Fatal(err)
	}
	prompt := input(t, `{"session_id":"","prompt":"How do I set the DNS server encryption protocol?"}`)
	for _, tc := range []struct {
		name, model string
		wantLine    bool
	}{
		{"index's own model", built, false},
		{"another model of the same dimension", other, true},
		{"a model folder that does not exist", filepath.Join(t.TempDir(), "gone"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Defaults()
			cfg.DB, cfg.Model = db, tc.model
			var stderr bytes.Buffer
			if _, err := Prompt(context.Background(), cfg, prompt, Options{Stderr: &stderr}); err != nil {
				t.Fatalf("Prompt: %v", err)
			}
			line := stderr.String()
			if got := strings.Contains(line, "vector search off") && strings.Contains(line, "answering with BM25 only"); got != tc.wantLine {
				t.Fatalf("stderr %q: mismatch line printed = %v, want %v", line, got, tc.wantLine)
			}
			if tc.wantLine && strings.Count(line, "\n") != 1 {
				t.Errorf("stderr %q: want exactly one line", line)
			}
		})
	}
}
