package harness

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/store"
)

func TestRunBEIR(t *testing.T) {
	beir := testkit.TinyBEIR(t)
	cfg := config.Defaults()
	rep, err := Run(context.Background(), Options{BEIR: beir, Split: "train", Modes: []string{"bm25"}, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Set != filepath.Base(beir)+"/train" || rep.Queries != 2 || len(rep.Modes) != 1 || rep.Modes[0].MRR != 1 {
		t.Errorf("report = %+v", rep)
	}
	// A BM25-only index has no fusion calibration: the default weight.
	if want := cfg.Search.Summary() + " (vector_weight from default)"; rep.Settings != want {
		t.Errorf("settings %q, want %q", rep.Settings, want)
	}
}

func TestRunErrors(t *testing.T) {
	beir := testkit.TinyBEIR(t)
	queries := filepath.Join(t.TempDir(), "q.jsonl")
	os.WriteFile(queries, []byte(`{"query": "penguins", "relevant": ["a.md"]}`+"\n"), 0o644)
	missing := filepath.Join(t.TempDir(), "none.db")
	bm25 := []string{"bm25"}
	tests := []struct {
		name string
		opt  Options
		want func(error) bool
	}{
		{"no input", Options{}, is(ErrInputs)},
		{"both inputs", Options{BEIR: beir, Queries: queries}, is(ErrInputs)},
		{"BEIR with a vault", Options{BEIR: beir, Split: "train", Vault: "v", Modes: bm25}, is(ErrBEIRIndex)},
		{"vectors without a model", Options{BEIR: beir, Split: "train"}, is(ErrNeedModel)},
		{"missing split", Options{BEIR: beir, Split: "test", Modes: bm25}, func(err error) bool {
			var se *SplitError
			return errors.As(err, &se) && len(se.Splits) == 1 && se.Splits[0] == "train" && errors.Is(err, os.ErrNotExist)
		}},
		{"subset of an existing index", Options{Queries: queries, DB: missing, Subset: 10}, is(ErrSubsetNeedsVault)},
		{"no index", Options{Queries: queries, DB: missing, Modes: bm25}, is(store.ErrNotIndexed)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Run(context.Background(), tt.opt); !tt.want(err) {
				t.Errorf("Run = %v", err)
			}
		})
	}
}

func is(target error) func(error) bool {
	return func(err error) bool { return errors.Is(err, target) }
}
