package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/core/store"
)

func TestDoctorIndexChecks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	good := filepath.Join(dir, "index.db")
	st, err := store.Open(ctx, good, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()

	// A corrupt copy: the header survives, the pages behind it do not.
	corrupt := filepath.Join(dir, "corrupt.db")
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for i := 100; i < len(b); i++ {
		b[i] = byte(i * 7)
	}
	os.WriteFile(corrupt, b, 0o600)

	tests := []struct {
		name   string
		db     string
		index  checkStatus
		vector checkStatus
	}{
		{"fresh index", good, checkPass, checkPass},
		{"missing index", filepath.Join(dir, "none.db"), checkFail, checkFail},
		{"corrupt index", corrupt, checkFail, checkFail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &doctor{cfg: &doctorConfig{DB: tt.db}}
			if f := d.checkIndex(ctx); f.status != tt.index {
				t.Errorf("checkIndex = %+v, want status %d", f, tt.index)
			} else if f.status == checkFail && f.fix == "" {
				t.Errorf("failure without a fix: %+v", f)
			}
			if f := d.checkVec(ctx); f.status != tt.vector {
				t.Errorf("checkVec = %+v, want status %d", f, tt.vector)
			}
		})
	}
}

func TestDoctorPath(t *testing.T) {
	bin := hookBinDir(t)
	os.WriteFile(filepath.Join(bin, "vaultctx"), []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("PATH", bin)
	d := &doctor{}
	if f := d.checkPath(context.Background()); f.status != checkPass || !strings.Contains(f.detail, bin) {
		t.Errorf("all binaries on PATH: %+v", f)
	}
	t.Setenv("PATH", t.TempDir())
	if f := d.checkPath(context.Background()); f.status != checkFail || !strings.Contains(f.detail, "vaultctx-pretooluse") {
		t.Errorf("empty PATH: %+v", f)
	}
}

// hookScript writes an executable sh script and returns its path.
func hookScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDoctorHooksAndRoundTrips(t *testing.T) {
	freshClaude(t)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "hook dir")
	os.MkdirAll(dir, 0o755)
	// Stand-ins with the hooks' names, each reading its stdin like a hook.
	hookScript(t, dir, settings.UserPromptBinary,
		`cat >/dev/null; printf '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"x"}}'`)
	hookScript(t, dir, settings.PreToolUseBinary, `cat >/dev/null`)
	hookScript(t, dir, settings.PostToolUseBinary, `cat >/dev/null; echo broken >&2; exit 3`)

	d := &doctor{}
	if f := d.checkHooks(ctx); f.status != checkFail || !strings.Contains(f.fix, "hooks install") {
		t.Fatalf("before install: %+v", f)
	}
	if code := run([]string{"hooks", "install", "--bin-dir", dir}); code != 0 {
		t.Fatalf("hooks install exit %d", code)
	}
	if f := d.checkHooks(ctx); f.status != checkPass {
		t.Fatalf("after install: %+v", f)
	}
	tests := []struct {
		event  string
		status checkStatus
		detail string
	}{
		{"UserPromptSubmit", checkPass, "bytes of UserPromptSubmit output"},
		{"PreToolUse", checkPass, "no output"},
		{"PostToolUse", checkFail, "broken"},
	}
	for _, tt := range tests {
		t.Run(tt.event, func(t *testing.T) {
			f := roundTrip(tt.event)(d, ctx)
			if f.status != tt.status || !strings.Contains(f.detail, tt.detail) || !strings.Contains(f.detail, " ms") {
				t.Errorf("round trip = %+v, want status %d with %q and a time", f, tt.status, tt.detail)
			}
		})
	}

	// "disableAllHooks": true fails the hooks check, whatever is wired.
	path, _ := settings.UserPath(os.Getenv)
	src, _ := os.ReadFile(path)
	disabled := strings.Replace(string(src), "{", `{"disableAllHooks": true, `, 1)
	os.WriteFile(path, []byte(disabled), 0o600)
	if f := (&doctor{}).checkHooks(ctx); f.status != checkFail || !strings.Contains(f.fix, "disableAllHooks") {
		t.Errorf("disableAllHooks accepted: %+v", f)
	}
	os.WriteFile(path, src, 0o600)

	// Output that is not a hook response for the event fails.
	hookScript(t, dir, settings.PreToolUseBinary, `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"Stop"}}'`)
	if f := roundTrip("PreToolUse")(d, ctx); f.status != checkFail {
		t.Errorf("wrong event name accepted: %+v", f)
	}
}

func TestSamplePayloads(t *testing.T) {
	for _, ev := range []string{"UserPromptSubmit", "PreToolUse", "PostToolUse"} {
		p, err := samplePayload(ev)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(p), `"hook_event_name":"`+ev+`"`) {
			t.Errorf("%s payload lacks its event name", ev)
		}
	}
	// The PostToolUse sample must be big enough to be condensed (4 KB is
	// the hook's default threshold).
	p, _ := samplePayload("PostToolUse")
	if len(p) < 8<<10 {
		t.Errorf("PostToolUse sample is %d bytes, want well over 4 KB", len(p))
	}
}

func TestDoctorConfig(t *testing.T) {
	freshClaude(t)
	for _, k := range []string{"VAULTCTX_CONFIG", "VAULTCTX_VAULT", "VAULTCTX_DB", "VAULTCTX_MODEL", "XDG_CONFIG_HOME", "XDG_DATA_HOME"} {
		t.Setenv(k, "")
	}
	dir := t.TempDir()
	absVault, _ := filepath.Abs("../../shared/corpora/obsidian/tasks-demo-vault")
	os.Mkdir(filepath.Join(dir, "notes"), 0o755)
	tests := []struct {
		name   string
		toml   string
		status checkStatus
		detail string
	}{
		{"valid", `vault = "` + absVault + `"`, checkPass, absVault},
		{"relative vault resolved against the file", `vault = "notes"`, checkPass, filepath.Join(dir, "notes")},
		{"syntax error", `vault = "unterminated`, checkFail, "config"},
		{"unknown key", "vault = \"" + absVault + "\"\nvalut = \"x\"", checkFail, "valut"},
		{"no vault", `model = ""`, checkFail, "no vault"},
		{"vault missing on disk", `vault = "/nonexistent/notes"`, checkFail, "not a directory"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("c%d.toml", i))
			os.WriteFile(path, []byte(tt.toml+"\n"), 0o600)
			d := &doctor{g: &globals{ConfigPath: path, Ctx: context.Background()}}
			f := d.checkConfig(context.Background())
			if f.status != tt.status || !strings.Contains(f.detail, tt.detail) {
				t.Errorf("checkConfig = %+v, want status %d mentioning %q", f, tt.status, tt.detail)
			}
			if f.status == checkFail && f.fix == "" {
				t.Errorf("failure without a fix")
			}
		})
	}
}

func TestDoctorModel(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // the model digest cache lives under it
	t.Setenv("XDG_CACHE_HOME", "")
	ctx := context.Background()
	f32, _ := filepath.Abs("../../shared/models/m2v-fixtures/float32")
	i8, _ := filepath.Abs("../../shared/models/m2v-fixtures/int8")
	m, err := embed.Open(f32)
	if err != nil {
		t.Fatal(err)
	}
	hash, err := m.Hash()
	m.Close()
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	withModel := filepath.Join(dir, "with-model.db")
	bare := filepath.Join(dir, "bare.db")
	for _, p := range []string{withModel, bare} {
		st, err := store.Open(ctx, p, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if p == withModel {
			if err := st.SetMeta(ctx, "model_hash", hash); err != nil {
				t.Fatal(err)
			}
			if err := st.SetMeta(ctx, "model_dir", f32); err != nil {
				t.Fatal(err)
			}
		}
		st.Close()
	}
	tests := []struct {
		name   string
		db     string
		model  string
		status checkStatus
		detail string
	}{
		{"configured model matches", withModel, f32, checkPass, "matches the index"},
		{"another model configured", withModel, i8, checkFail, "not the model the index was built with"},
		{"model recorded by the index", withModel, "", checkPass, "matches the index"},
		{"configured model missing", withModel, filepath.Join(dir, "nope"), checkFail, "no usable model"},
		{"no model anywhere", bare, "", checkPass, "BM25-only"},
		{"model configured, index has no vectors", bare, f32, checkFail, "holds no vectors"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &doctor{cfg: &doctorConfig{DB: tt.db, Model: tt.model}}
			f := d.checkModel(ctx)
			if f.status != tt.status || !strings.Contains(f.detail, tt.detail) {
				t.Errorf("checkModel = %+v, want status %d mentioning %q", f, tt.status, tt.detail)
			}
			if f.status == checkFail && f.fix == "" {
				t.Errorf("failure without a fix")
			}
		})
	}
}

func TestDoctorExitsOneOnFailure(t *testing.T) {
	freshClaude(t)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("VAULTCTX_CONFIG", filepath.Join(t.TempDir(), "none.toml"))
	if code := run([]string{"doctor"}); code != 1 {
		t.Errorf("doctor on an empty machine: exit %d, want 1", code)
	}
}
