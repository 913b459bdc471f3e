package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/internal/testkit/golden"

	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/vault"
	"github.com/vaultctx/vaultctx/internal/hooktest"
)

type output struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

func TestPromptGoldenAndDeterministic(t *testing.T) {
	env := hooktest.NewEnv(t, true)
	bin := hooktest.Build(t)
	payload := promptPayload(t)
	// No session id: the session de-duplication is tested separately.
	noSession := bytes.Replace(payload, []byte(`"session_id":"3f1c2a7e-1b2d-4c55-9a10-0c8d2e6b7f01"`), []byte(`"session_id":""`), 1)
	// This machine may be busy: the deadline itself is tested in
	// TestPromptFailsOpen, here only the output matters.
	slow := "VAULTCTX_HOOK_DEADLINE=60s"
	first := hooktest.Run(t, bin, noSession, env.Vars, slow)
	second := hooktest.Run(t, bin, noSession, env.Vars, slow)
	if first.Code != 0 || len(first.Stdout) == 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", first.Code, first.Stdout, first.Stderr)
	}
	if !bytes.Equal(first.Stdout, second.Stdout) {
		t.Errorf("two runs differ:\n%s\n%s", first.Stdout, second.Stdout)
	}
	// Notes are named by absolute paths under the vault's temp folder.
	masked := env.MaskVault(first.Stdout)
	var out output
	if err := json.Unmarshal(masked, &out); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, first.Stdout)
	}
	ctx := out.HookSpecificOutput.AdditionalContext
	if out.HookSpecificOutput.HookEventName != "UserPromptSubmit" || !strings.HasPrefix(ctx, "## Relevant Memory Context") {
		t.Errorf("unexpected output: %s", first.Stdout)
	}
	if !strings.Contains(ctx, "\n"+hooktest.VaultMark+"/cpp-text/how-to-convert-between-various-string-types.md\n") {
		t.Errorf("the string conversion note is missing from the context:\n%s", ctx)
	}
	if n := len([]rune(ctx)); n > 500*4 {
		t.Errorf("context is %d characters, over the 500-token budget", n)
	}
	// The golden is taken with a budget no block reaches: a block names
	// notes by absolute paths under the temp folder, so where a budget cut
	// falls moves with TMPDIR's length.
	wide := filepath.Join(t.TempDir(), "wide.toml")
	if err := os.WriteFile(wide, []byte("[hooks]\nprompt_budget_tokens = 6000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	all := hooktest.Run(t, bin, noSession, env.Vars, slow, "VAULTCTX_CONFIG="+wide)
	golden.Check(t, filepath.Join("testdata", "userprompt.golden.json"), env.MaskVault(all.Stdout))

	// The same prompt with the hook turned off in the config: nothing.
	off := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(off, []byte("[hooks]\nuserprompt = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := hooktest.Run(t, bin, noSession, env.Vars, slow, "VAULTCTX_CONFIG="+off); r.Code != 0 || len(r.Stdout) != 0 || len(r.Stderr) != 0 {
		t.Errorf("userprompt = false: exit %d, stdout %q, stderr %q; want exit 0 and nothing", r.Code, r.Stdout, r.Stderr)
	}
}

func TestPromptSilentCases(t *testing.T) {
	env := hooktest.NewEnv(t, false)
	bin := hooktest.Build(t)
	for _, tc := range []struct {
		name  string
		stdin []byte
	}{
		{"slash command", hooktest.Payload(t, "userprompt-slash.json")},
		{"trivial prompt", hooktest.Payload(t, "userprompt-trivial.json")},
		{"nothing relevant", []byte(`{"hook_event_name":"UserPromptSubmit","prompt":"bake sourdough bread with rye flour overnight"}`)},
		// What Claude Code 2.1.332 sends when a background agent about wide
		// strings finishes: its words match the vault, but it is no question.
		{"task notification", []byte(`{"hook_event_name":"UserPromptSubmit","session_id":"s","prompt":"<task-notification>\n<task-id>a41ca248c52d79cd8</task-id>\n<status>completed</status>\n<summary>Agent \"Convert wide strings to multibyte strings in C++\" finished</summary>\n<result>Use WideCharToMultiByte or wcstombs_s to convert a wide character string to a multibyte string.</result>\n</task-notification>"}`)},
		{"acknowledgement", []byte(`{"hook_event_name":"UserPromptSubmit","prompt":"looks good, ship it"}`)},
		{"only a path", []byte(`{"hook_event_name":"UserPromptSubmit","prompt":"cpp-text/how-to-convert-between-various-string-types.md"}`)},
		{"empty stdin", nil},
		{"garbage stdin", []byte("\x00\xffnot json{{{")},
		{"wrong shape", []byte(`{"prompt": 42, "session_id": {"a": 1}}`)},
		{"huge stdin", bytes.Repeat([]byte("a"), 20<<20)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := hooktest.Run(t, bin, tc.stdin, env.Vars)
			if r.Code != 0 || len(r.Stdout) != 0 {
				t.Errorf("exit %d, stdout %q (stderr %q); want exit 0 and empty stdout", r.Code, r.Stdout, r.Stderr)
			}
		})
	}
}

func TestPromptFailsOpen(t *testing.T) {
	bin := hooktest.Build(t)
	payload := promptPayload(t)
	env := hooktest.NewEnv(t, true)

	corrupt := filepath.Join(t.TempDir(), "corrupt.db")
	os.WriteFile(corrupt, bytes.Repeat([]byte("not a database "), 1000), 0o644)
	badConfig := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(badConfig, []byte("nonsense = [\n"), 0o644)

	// A model directory that disappeared after indexing.
	moved := hooktest.NewEnv(t, false)
	modelCopy := filepath.Join(moved.Dir, "model")
	testkit.CopyTree(t, filepath.Join(testkit.SharedDir(), "models/glove-120k"), modelCopy)
	if _, err := index.Run(context.Background(), index.Options{Vault: moved.Vault, DB: moved.DB, ModelDir: modelCopy, Rules: vault.Rules{MaxFileBytes: 5 << 20}}); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(modelCopy)

	for _, tc := range []struct {
		name  string
		vars  []string
		extra []string
	}{
		{"missing database", env.Vars, []string{"VAULTCTX_DB=" + filepath.Join(t.TempDir(), "none.db")}},
		{"corrupt database", env.Vars, []string{"VAULTCTX_DB=" + corrupt}},
		{"invalid config", env.Vars, []string{"VAULTCTX_CONFIG=" + badConfig}},
		{"missing model", moved.Vars, nil},
		{"deadline", env.Vars, []string{"VAULTCTX_HOOK_DEADLINE=1ns"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := hooktest.Run(t, bin, payload, tc.vars, tc.extra...)
			if r.Code != 0 {
				t.Fatalf("exit %d; stderr %q", r.Code, r.Stderr)
			}
			if len(r.Stdout) > 0 && !json.Valid(r.Stdout) {
				t.Errorf("stdout is not valid JSON: %q", r.Stdout)
			}
			if bytes.Count(bytes.TrimSpace(r.Stderr), []byte("\n")) > 0 {
				t.Errorf("more than one stderr line: %q", r.Stderr)
			}
		})
	}
}

// TestPromptDeeplyNested: a payload nested 4 million levels deep (the most
// the 8 MiB cap holds) exits 0 with nothing printed, instead of running
// gjson's recursive validator near a stack overflow (issue 17).
func TestPromptDeeplyNested(t *testing.T) {
	bin := hooktest.Build(t)
	env := hooktest.NewEnv(t, false)
	const d = 4<<20 - 64
	deep := []byte(`{"hook_event_name":"UserPromptSubmit","prompt":"wide strings","x":` + strings.Repeat("[", d) + strings.Repeat("]", d) + `}`)
	r := hooktest.Run(t, bin, deep, env.Vars, "VAULTCTX_HOOK_DEADLINE=60s")
	if r.Code != 0 || len(r.Stdout) != 0 {
		t.Fatalf("exit %d, stdout %.200q; want exit 0 and empty stdout", r.Code, r.Stdout)
	}
	if !bytes.Contains(r.Stderr, []byte("deeper")) {
		t.Errorf("stderr = %q, want it to say the payload nests too deep", r.Stderr)
	}
}

func TestPromptDuringFullIndex(t *testing.T) {
	env := hooktest.NewEnv(t, false)
	bin := hooktest.Build(t)
	payload := promptPayload(t)
	done := make(chan error, 1)
	go func() {
		_, err := index.Run(context.Background(), index.Options{Vault: env.Vault, DB: env.DB, Full: true, NoModel: true, Rules: vault.Rules{MaxFileBytes: 5 << 20}})
		done <- err
	}()
	for i := 0; i < 5; i++ {
		r := hooktest.Run(t, bin, payload, env.Vars)
		if r.Code != 0 || (len(r.Stdout) > 0 && !json.Valid(r.Stdout)) {
			t.Fatalf("during full index: exit %d stdout %q stderr %q", r.Code, r.Stdout, r.Stderr)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestPromptSessionDeduplication runs the same prompt twice in one session:
// the second run must not repeat a chunk the first injected, while another
// session gets the first answer again.
func TestPromptSessionDeduplication(t *testing.T) {
	env := hooktest.NewEnv(t, true)
	bin := hooktest.Build(t)
	payload := promptPayload(t)
	// A chunk is its heading, its path and its first line of text: a long
	// section is cut into several chunks under one heading.
	heads := regexp.MustCompile(`(?m)^### .*\n.*\n.*\n`)
	context := func(r hooktest.Result) []string {
		t.Helper()
		if r.Code != 0 {
			t.Fatalf("exit %d, stderr %q", r.Code, r.Stderr)
		}
		if len(r.Stdout) == 0 {
			return nil
		}
		var out output
		if err := json.Unmarshal(r.Stdout, &out); err != nil {
			t.Fatalf("stdout is not JSON: %v", err)
		}
		return heads.FindAllString(out.HookSpecificOutput.AdditionalContext, -1)
	}
	first := context(hooktest.Run(t, bin, payload, env.Vars))
	second := context(hooktest.Run(t, bin, payload, env.Vars))
	if len(first) == 0 {
		t.Fatal("the first run injected nothing")
	}
	for _, a := range first {
		for _, b := range second {
			if a == b {
				t.Errorf("second run repeats %q", a)
			}
		}
	}
	other := bytes.Replace(payload, []byte(`"session_id":"3f1c2a7e-1b2d-4c55-9a10-0c8d2e6b7f01"`), []byte(`"session_id":"another"`), 1)
	if got := context(hooktest.Run(t, bin, other, env.Vars)); strings.Join(got, "") != strings.Join(first, "") {
		t.Errorf("another session got %q, want %q", got, first)
	}
}

// promptPayload is the shared UserPromptSubmit payload with its question
// made specific: on the small test vault (hooktest.DefaultSources) every
// word of "How do I convert a wide character string to a multibyte string
// safely in C++?" is common, and no note holds 90% of it ("safely"), so the
// relevance floor keeps silent (core/recall/FLOOR.md, "What the floor
// cannot do"). Naming the function, as convertPrompt does, is enough.
func promptPayload(t *testing.T) []byte {
	t.Helper()
	b := hooktest.Payload(t, "userprompt.json")
	out := bytes.Replace(b, []byte("to a multibyte string safely in C++?"), []byte("to a multibyte string with wcstombs_s in C++?"), 1)
	if bytes.Equal(out, b) {
		t.Fatal("the shared payload's prompt changed; update promptPayload")
	}
	return out
}
