package index

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/vault"
)

// An indexed vault that contains the mixed note returns no secret from a
// search, and neither the chunks, the FTS5 vocabulary nor the vectors hold
// one.
func TestIndexedSecretsAreScrubbed(t *testing.T) {
	note, err := os.ReadFile(filepath.Join(shared, "secrets/notes_mixed.md"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(shared, "secrets/notes_mixed.expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spans []struct {
		Start, End int
		ID         string
	}
	if err := json.Unmarshal(raw, &spans); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	v := filepath.Join(dir, "vault")
	os.MkdirAll(v, 0o755)
	os.WriteFile(filepath.Join(v, "notes_mixed.md"), note, 0o644)
	db := filepath.Join(dir, "index.db")
	sum, err := Run(context.Background(), Options{Vault: v, DB: db, ModelDir: filepath.Join(shared, "models/glove-120k"), Rules: vault.Rules{MaxFileBytes: 5 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Redactions) == 0 {
		t.Fatalf("no redactions counted: %+v", sum)
	}
	st := check(t, db)
	ctx := context.Background()
	// Positive control: text that is in the note is found, so the leak
	// check can fail.
	if where, err := st.Leaks(ctx, "REDACTED"); err != nil || len(where) == 0 {
		t.Fatalf("leak check does not see indexed text: %v %v", where, err)
	}
	for _, sp := range spans {
		secret := string(note[sp.Start:sp.End])
		t.Run(sp.ID, func(t *testing.T) {
			where, err := st.Leaks(ctx, secret)
			if err != nil {
				t.Fatal(err)
			}
			if len(where) > 0 {
				t.Errorf("secret %s found in %v", sp.ID, where)
			}
			for _, mode := range []string{retrieve.ModeBM25, retrieve.ModeHybrid} {
				hits, err := retrieve.Search(ctx, storeSource{st}, nil, secret, retrieve.Options{Mode: mode})
				if err != nil {
					t.Fatal(err)
				}
				for _, h := range hits {
					if contains(h.Text, secret) || contains(h.Section, secret) {
						t.Errorf("%s search for %s returned it", mode, sp.ID)
					}
				}
			}
		})
	}
}

func contains(s, sub string) bool { return sub != "" && strings.Contains(s, sub) }
