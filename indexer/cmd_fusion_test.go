package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// `vaultctx index` calibrates the fusion, and `status` and `search
// --explain` say which vector_weight they use and where it came from: the
// calibration, or the config file when it sets the key.
func TestFusionShown(t *testing.T) {
	dir := isolateCLI(t)
	vault := filepath.Join(dir, "vault")
	testkit.CopyTree(t, filepath.Join(testkit.SharedDir(), "corpora/edge"), vault)
	db := filepath.Join(dir, "index.db")
	code, out := runCaptured(t, "index", "--vault", vault, "--db", db, "--model", gloveModel)
	if code != 0 || !strings.Contains(out, "fusion of hybrid search calibrated: vector_weight ") {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	if code, out := runCaptured(t, "status", "--db", db); code != 0 || !strings.Contains(out, "(calibrated), min_cosine 0.7 (default); index calibration vector_weight ") {
		t.Errorf("status: exit %d: %s", code, out)
	}
	if code, out := runCaptured(t, "search", "--db", db, "--explain", "Get-ChildItem"); code != 0 || !strings.Contains(out, "fusion: vector_weight from calibrated, min_cosine from default; index calibration ") {
		t.Errorf("search --explain: exit %d: %s", code, out)
	}
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte("[search]\nvector_weight = 0.35\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VAULTCTX_CONFIG", cfg)
	if code, out := runCaptured(t, "search", "--db", db, "--explain", "Get-ChildItem"); code != 0 || !strings.Contains(out, "vector_weight 0.35,") || !strings.Contains(out, "vector_weight from config") {
		t.Errorf("search --explain with vector_weight in the config: exit %d: %s", code, out)
	}
}
