package recall

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/vault"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// contextPaths returns the path line of every hit in a context hook's
// output (the line after each "### " heading).
func contextPaths(tb testing.TB, out []byte) []string {
	tb.Helper()
	if len(out) == 0 {
		return nil
	}
	var o struct {
		HookSpecificOutput struct{ AdditionalContext string } `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &o); err != nil {
		tb.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	lines := strings.Split(o.HookSpecificOutput.AdditionalContext, "\n")
	var paths []string
	for i, l := range lines {
		if strings.HasPrefix(l, "### ") && i+1 < len(lines) {
			paths = append(paths, lines[i+1])
		}
	}
	return paths
}

// TestContextPathsExist indexes a vault of real notes whose folder and file
// names are stored in NFD, as macOS and sync tools write them, and checks
// that every path a context block names is absolute and exists on disk,
// the NFD notes under their NFD names (the index keys them in NFC, which
// does not exist on Linux). A note deleted after indexing is left out.
func TestContextPathsExist(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := filepath.Join(t.TempDir(), "vault")
	src := testkit.Shared(t, "corpora", "large", "cpp-docs", "docs", "text")
	nfdDir := norm.NFD.String("Übersetzung für C++")
	notes := map[string]string{ // on-disk path under root -> source note
		filepath.Join(nfdDir, norm.NFD.String("Zeichenketten-Konvertierung.md")): "how-to-convert-between-various-string-types.md",
		filepath.Join(nfdDir, norm.NFD.String("Unicode-Unterstützung.md")):       "support-for-unicode.md",
		filepath.Join("plain", "unicode-programming-summary.md"):                 "unicode-programming-summary.md",
	}
	for dst, from := range notes {
		b, err := os.ReadFile(filepath.Join(src, from))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(root, dst)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "index.db")
	if _, err := index.Run(context.Background(), index.Options{Vault: root, DB: db, Full: true, NoModel: true, Rules: vault.Rules{MaxFileBytes: 5 << 20}}); err != nil {
		t.Fatal(err)
	}
	cfg := config.Defaults()
	cfg.DB = db
	// Not a test of the relevance floor: on this small vault the
	// calibrated floor keeps silent on the prompt (FLOOR.md, "What the
	// floor cannot do"), so a lenient one lets the block be printed.
	cfg.Hooks.MinEvidence = 0.5
	if _, err := CalibrateIndex(context.Background(), cfg); err != nil { // as `vaultctx index` does
		t.Fatal(err)
	}
	prompt := input(t, `{"session_id":"","prompt":"How do I convert a wide character string to a multibyte string in C++?"}`)

	out, err := Prompt(context.Background(), cfg, prompt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	paths := contextPaths(t, out)
	if len(paths) == 0 {
		t.Fatalf("no context for a prompt the notes answer:\n%s", out)
	}
	conv := filepath.Join(root, nfdDir, norm.NFD.String("Zeichenketten-Konvertierung.md"))
	named := false
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			t.Errorf("path %q is not absolute", p)
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("path %q does not exist: %v", p, err)
		}
		if p == conv {
			named = true
		}
		if nfc := norm.NFC.String(p); nfc != p {
			if _, err := os.Stat(nfc); err == nil {
				t.Logf("this file system folds normalisation: %q exists too", nfc)
			}
		}
	}
	if !named {
		t.Errorf("the conversion note is not named under its NFD name %q; paths: %q", conv, paths)
	}

	// Delete it without re-indexing: the block no longer names it, and
	// every path it names still exists.
	if err := os.Remove(conv); err != nil {
		t.Fatal(err)
	}
	out, err = Prompt(context.Background(), cfg, prompt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	after := contextPaths(t, out)
	t.Logf("named %q; after the deletion %q", paths, after)
	for _, p := range after {
		if p == conv {
			t.Errorf("the deleted note %q is still named", p)
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("path %q does not exist: %v", p, err)
		}
	}
}

// TestRepeatedPromptStaysOnTopic asks one question again and again in one
// session on a vault of real notes: each answer must earn its place with
// chunks the session has not seen (the floor is measured on them), so the
// later answers name the topic or the hook keeps silent, never filler that
// ranks next because the chunk that answered is now left out.
func TestRepeatedPromptStaysOnTopic(t *testing.T) {
	cfg := stringNotesIndex(t)
	if _, err := CalibrateIndex(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	prompt := input(t, `{"session_id":"repeat-1","prompt":"how do I use wmain to receive wide character command line arguments with wchar_t argv"}`)
	answers := 0
	for run := 1; run <= 10; run++ {
		out, err := Prompt(context.Background(), cfg, prompt, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(out) == 0 {
			t.Logf("run %d: silent after %d answers", run, answers)
			break
		}
		answers++
		if !strings.Contains(strings.ToLower(string(out)), "wmain") {
			t.Errorf("run %d: a block without the topic:\n%s", run, out)
		}
	}
	if answers == 0 {
		t.Error("the question the notes answer got no context")
	}
}

// TestCodeSearchWholeWords: a Grep's words are code, matched as whole
// words, so "func main" finds no evidence in notes that say "function"
// and "main", while a name the notes hold (wmain) still does.
func TestCodeSearchWholeWords(t *testing.T) {
	cfg := stringNotesIndex(t)
	cfg.Hooks.MinEvidence = 0.5 // lenient: the test is of the matching, not of the calibration
	for _, c := range []struct {
		pattern string
		want    bool
	}{
		{"func main", false},
		{"wmain envp", true},
	} {
		in := input(t, `{"session_id":"","tool_name":"Grep","tool_input":{"pattern":"`+c.pattern+`"}}`)
		out, err := PreTool(context.Background(), cfg, in, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(out) > 0; got != c.want {
			t.Errorf("Grep %q: context %v, want %v\n%s", c.pattern, got, c.want, out)
		}
	}
}

// stringNotesIndex indexes the 24 real notes of cpp-docs/docs/text (C++
// string and character set docs) without a model into a file under
// t.TempDir(), with fresh state and cache folders, and returns the default
// config pointed at it.
func stringNotesIndex(t *testing.T) config.Config {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	src := testkit.Shared(t, "corpora", "large", "cpp-docs", "docs", "text")
	db := filepath.Join(t.TempDir(), "index.db")
	if _, err := index.Run(context.Background(), index.Options{Vault: src, DB: db, Full: true, NoModel: true, Rules: vault.Rules{MaxFileBytes: 5 << 20}}); err != nil {
		t.Fatal(err)
	}
	cfg := config.Defaults()
	cfg.DB = db
	return cfg
}
