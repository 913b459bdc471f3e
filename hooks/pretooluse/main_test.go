package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/hookio"
	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/internal/testkit/golden"

	"github.com/vaultctx/vaultctx/internal/hooktest"
)

type output struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// sources is the test vault: the default notes plus the PowerShell notes
// the example payloads ask about (Get-ChildItem, remoting) and the CRT
// security notes (strcpy_s).
var sources = append(append([]hooktest.Source(nil), hooktest.DefaultSources...),
	hooktest.Source{From: "corpora/large/PowerShell-Docs/reference/7.4/Microsoft.PowerShell.Management/Get-ChildItem.md", To: "ps/Get-ChildItem.md"},
	hooktest.Source{From: "corpora/large/PowerShell-Docs/reference/docs-conceptual/security/remoting", To: "ps/remoting"},
	hooktest.Source{From: "corpora/large/cpp-docs/docs/c-runtime-library/security-features-in-the-crt.md", To: "crt/security-features-in-the-crt.md"},
	hooktest.Source{From: "corpora/large/cpp-docs/docs/c-runtime-library/secure-template-overloads.md", To: "crt/secure-template-overloads.md"},
)

// session is the session_id of the shared example payloads.
const session = "3f1c2a7e-1b2d-4c55-9a10-0c8d2e6b7f01"

// withSession returns payload with its session_id replaced by id.
func withSession(payload []byte, id string) []byte {
	return bytes.Replace(payload, []byte(`"session_id":"`+session+`"`), []byte(`"session_id":"`+id+`"`), 1)
}

// parse checks that r is a valid PreToolUse context output (or nothing)
// and returns the context block.
func parse(t *testing.T, event string, r hooktest.Result) string {
	t.Helper()
	if r.Code != 0 {
		t.Fatalf("exit %d, stderr %q", r.Code, r.Stderr)
	}
	if len(r.Stdout) == 0 {
		return ""
	}
	var out output
	if err := json.Unmarshal(r.Stdout, &out); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, r.Stdout)
	}
	if out.HookSpecificOutput.HookEventName != event || !strings.HasPrefix(out.HookSpecificOutput.AdditionalContext, "## Relevant Memory Context\n") {
		t.Fatalf("unexpected output: %s", r.Stdout)
	}
	for _, bad := range []string{`"decision"`, `"permissionDecision"`, `"updatedInput"`} {
		if bytes.Contains(r.Stdout, []byte(bad)) {
			t.Errorf("output sets %s: %s", bad, r.Stdout)
		}
	}
	return out.HookSpecificOutput.AdditionalContext
}

var entryRE = regexp.MustCompile(`(?m)^### (.*)\n(.*)\n`)

// entries returns the "heading | path" of each hit in a context block.
func entries(block string) []string {
	var out []string
	for _, m := range entryRE.FindAllStringSubmatch(block, -1) {
		out = append(out, m[1]+" | "+m[2])
	}
	return out
}

func TestPreToolGoldenAndDeterministic(t *testing.T) {
	env := hooktest.NewEnvWith(t, true, sources...)
	bin := hooktest.Build(t)
	off := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(off, []byte("[hooks]\npretooluse = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The goldens are taken with a budget no block reaches: a block names
	// notes by absolute paths under the temp folder, so where a budget cut
	// falls moves with TMPDIR's length.
	wide := filepath.Join(t.TempDir(), "wide.toml")
	if err := os.WriteFile(wide, []byte("[hooks]\npretool_budget_tokens = 6000\nmin_evidence = 0.5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Not a test of the relevance floor: on this small vault, where 44 of
	// 741 chunks name Get-ChildItem, the calibrated floor keeps the shared
	// Grep payload silent (core/recall/FLOOR.md); a lenient one lets the
	// blocks be printed for their shape.
	lenient := filepath.Join(t.TempDir(), "lenient.toml")
	if err := os.WriteFile(lenient, []byte("[hooks]\nmin_evidence = 0.5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		payload string
		want    string // a path the context must show; "" for no output
	}{
		{"pretooluse-grep.json", hooktest.VaultMark + "/ps/Get-ChildItem.md"},
		// A survey of unsafe C string functions and their _s variants:
		// the CRT's secure template overloads note answers it.
		{"pretooluse-task.json", hooktest.VaultMark + "/crt/secure-template-overloads.md"},
		{"pretooluse-websearch.json", hooktest.VaultMark + "/ps/remoting/SSH-Remoting-in-PowerShell.md"},
		{"pretooluse-bash.json", ""},
	} {
		t.Run(tc.payload, func(t *testing.T) {
			// No session: de-duplication is tested separately.
			payload := withSession(hooktest.Payload(t, tc.payload), "")
			first := hooktest.Run(t, bin, payload, env.Vars, "VAULTCTX_CONFIG="+lenient)
			second := hooktest.Run(t, bin, payload, env.Vars, "VAULTCTX_CONFIG="+lenient)
			// Notes are named by absolute paths under the vault's temp folder.
			first.Stdout = env.MaskVault(first.Stdout)
			second.Stdout = env.MaskVault(second.Stdout)
			if !bytes.Equal(first.Stdout, second.Stdout) {
				t.Errorf("two runs differ:\n%s\n%s", first.Stdout, second.Stdout)
			}
			block := parse(t, "PreToolUse", first)
			if tc.want == "" {
				if len(first.Stdout) != 0 {
					t.Errorf("want no output, got %s", first.Stdout)
				}
				return
			}
			if !strings.Contains(block, "\n"+tc.want) {
				t.Errorf("context does not show %s:\n%s", tc.want, block)
			}
			if n := len([]rune(block)); n > 300*4 {
				t.Errorf("context is %d characters, over the 300-token default budget", n)
			}
			all := hooktest.Run(t, bin, payload, env.Vars, "VAULTCTX_CONFIG="+wide)
			golden.Check(t, filepath.Join("testdata", strings.TrimSuffix(tc.payload, ".json")+".golden.json"), env.MaskVault(all.Stdout))

			// The same call with the hook turned off in the config: nothing.
			if r := hooktest.Run(t, bin, payload, env.Vars, "VAULTCTX_CONFIG="+off); r.Code != 0 || len(r.Stdout) != 0 || len(r.Stderr) != 0 {
				t.Errorf("pretooluse = false: exit %d, stdout %q, stderr %q; want exit 0 and nothing", r.Code, r.Stdout, r.Stderr)
			}
		})
	}
}

func TestPreToolBudget(t *testing.T) {
	env := hooktest.NewEnvWith(t, true, sources...)
	bin := hooktest.Build(t)
	payload := withSession(hooktest.Payload(t, "pretooluse-websearch.json"), "")
	// The smallest budget still fits one hit: its heading, its absolute
	// path (as long as the temp folder makes it) and a few words.
	small := max(60, (len(env.Vault)+200)/4)
	for _, tokens := range []int{small, 300, 1000} {
		cfg := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(cfg, []byte("[hooks]\npretool_budget_tokens = "+itoa(tokens)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		block := parse(t, "PreToolUse", hooktest.Run(t, bin, payload, env.Vars, "VAULTCTX_CONFIG="+cfg))
		if block == "" || len([]rune(block)) > tokens*4 {
			t.Errorf("budget %d tokens: context of %d characters:\n%s", tokens, len([]rune(block)), block)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestPreToolSilentAndFailOpen(t *testing.T) {
	env := hooktest.NewEnvWith(t, true, sources...)
	bin := hooktest.Build(t)
	payload := withSession(hooktest.Payload(t, "pretooluse-websearch.json"), "")
	corrupt := filepath.Join(t.TempDir(), "corrupt.db")
	if err := os.WriteFile(corrupt, bytes.Repeat([]byte("not a database "), 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	// The fault campaign's crash (issue 17): gjson's recursive validator
	// overflows the stack at some 6 million levels (exit 2). A closed nest
	// that deep does not fit the 8 MiB cap, so the payload is '[' up to
	// the cap, never closed: 8.4 million levels the validator would
	// descend before finding the input cut short. The long deadline lets
	// the parse, not the deadline, decide, and the stderr line must name
	// the depth bound, not the deadline.
	deepPrefix := `{"hook_event_name":"PreToolUse","tool_name":"Grep","tool_input":`
	deep := []byte(deepPrefix + strings.Repeat("[", int(hookio.DefaultMaxInput)-len(deepPrefix)))
	for _, tc := range []struct {
		name   string
		stdin  []byte
		extra  []string
		stderr string // what the stderr line must say, if anything
	}{
		{"empty stdin", nil, nil, ""},
		{"garbage stdin", []byte("\x00\xffnot json{{{"), nil, ""},
		{"wrong shape", []byte(`{"tool_name": 42, "tool_input": "x"}`), nil, ""},
		{"huge stdin", bytes.Repeat([]byte("a"), 20<<20), nil, ""},
		{"deeply nested", deep, []string{"VAULTCTX_HOOK_DEADLINE=60s"}, "nested deeper than"},
		{"huge valid payload", []byte(`{"hook_event_name":"PreToolUse","tool_name":"WebSearch","tool_input":{"query":"` + strings.Repeat("remoting ", 3<<20) + `"}}`), nil, ""},
		{"other event", bytes.Replace(payload, []byte(`"PreToolUse"`), []byte(`"PostToolUse"`), 1), nil, ""},
		{"glob without topic", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Glob","tool_input":{"pattern":"**/*.md"}}`), nil, ""},
		{"nothing relevant", []byte(`{"hook_event_name":"PreToolUse","tool_name":"WebSearch","tool_input":{"query":"bake sourdough bread with rye flour overnight"}}`), nil, ""},
		{"missing database", payload, []string{"VAULTCTX_DB=" + filepath.Join(t.TempDir(), "none.db")}, ""},
		{"corrupt database", payload, []string{"VAULTCTX_DB=" + corrupt}, ""},
		{"deadline", payload, []string{"VAULTCTX_HOOK_DEADLINE=1ns"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := hooktest.Run(t, bin, tc.stdin, env.Vars, tc.extra...)
			if r.Code != 0 || len(r.Stdout) != 0 {
				t.Errorf("exit %d, stdout %q (stderr %q); want exit 0 and empty stdout", r.Code, r.Stdout, r.Stderr)
			}
			if bytes.Count(bytes.TrimSpace(r.Stderr), []byte("\n")) > 0 {
				t.Errorf("more than one stderr line: %q", r.Stderr)
			}
			if !bytes.Contains(r.Stderr, []byte(tc.stderr)) {
				t.Errorf("stderr %.300q does not say %q", r.Stderr, tc.stderr)
			}
		})
	}
}

// stateFiles returns the session state files under env's XDG_STATE_HOME.
func stateFiles(t *testing.T, env *hooktest.Env) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(env.Dir, "state", "vaultctx", "sessions", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func overlap(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range a {
		in[x] = true
	}
	var out []string
	for _, x := range b {
		if in[x] {
			out = append(out, x)
		}
	}
	return out
}

func TestPreToolSessionDeduplication(t *testing.T) {
	env := hooktest.NewEnvWith(t, true, sources...)
	bin := hooktest.Build(t)
	prompt := hooktest.BuildDir(t, "../userprompt")
	ws := hooktest.Payload(t, "pretooluse-websearch.json")

	t.Run("same tool call twice", func(t *testing.T) {
		p := withSession(ws, "dedup-1")
		first := entries(parse(t, "PreToolUse", hooktest.Run(t, bin, p, env.Vars)))
		second := entries(parse(t, "PreToolUse", hooktest.Run(t, bin, p, env.Vars)))
		if len(first) == 0 {
			t.Fatal("the first call injected nothing")
		}
		if o := overlap(first, second); len(o) > 0 {
			t.Errorf("second call repeats %q", o)
		}
		// Another session is not affected.
		other := entries(parse(t, "PreToolUse", hooktest.Run(t, bin, withSession(ws, "dedup-other"), env.Vars)))
		if strings.Join(other, "\n") != strings.Join(first, "\n") {
			t.Errorf("a fresh session got %q, want %q", other, first)
		}
	})

	t.Run("prompt hook then tool call", func(t *testing.T) {
		up := []byte(`{"session_id":"SID","hook_event_name":"UserPromptSubmit","prompt":"how do I configure PowerShell remoting over SSH?"}`)
		// Without a session the two hooks overlap, so the check below can fail.
		shown := entries(parse(t, "UserPromptSubmit", hooktest.Run(t, prompt, bytes.Replace(up, []byte("SID"), nil, 1), env.Vars)))
		tool := entries(parse(t, "PreToolUse", hooktest.Run(t, bin, withSession(ws, ""), env.Vars)))
		if len(overlap(shown, tool)) == 0 {
			t.Fatalf("test premise: prompt context %q and tool context %q share no chunk", shown, tool)
		}
		shown = entries(parse(t, "UserPromptSubmit", hooktest.Run(t, prompt, bytes.Replace(up, []byte("SID"), []byte("dedup-2"), 1), env.Vars)))
		tool = entries(parse(t, "PreToolUse", hooktest.Run(t, bin, withSession(ws, "dedup-2"), env.Vars)))
		if o := overlap(shown, tool); len(o) > 0 {
			t.Errorf("the tool call repeats %q from the prompt hook", o)
		}
	})

	t.Run("state expires after 24 h", func(t *testing.T) {
		p := withSession(ws, "dedup-3")
		first := hooktest.Run(t, bin, p, env.Vars)
		var state string
		for _, f := range stateFiles(t, env) {
			if strings.HasPrefix(filepath.Base(f), "dedup-3") {
				state = f
			}
		}
		if state == "" {
			t.Fatalf("no state file for the session among %q", stateFiles(t, env))
		}
		if info, err := os.Stat(state); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("state file %s: %v, mode %v; want 0600", state, err, info.Mode().Perm())
		}
		old := time.Now().Add(-25 * time.Hour)
		if err := os.Chtimes(state, old, old); err != nil {
			t.Fatal(err)
		}
		again := hooktest.Run(t, bin, p, env.Vars)
		if len(first.Stdout) == 0 || !bytes.Equal(first.Stdout, again.Stdout) {
			t.Errorf("after expiry the session should start afresh:\nfirst: %s\nagain: %s", first.Stdout, again.Stdout)
		}
	})
}

// TestNoSecretsOut indexes a note full of labelled fake credentials and
// checks that neither context hook prints any of them, even with budgets
// large enough to show the whole note.
func TestNoSecretsOut(t *testing.T) {
	note := filepath.Join(testkit.SharedDir(), "secrets", "notes_mixed.md")
	text, err := os.ReadFile(note)
	if err != nil {
		t.Fatal(err)
	}
	var spans []struct {
		Start, End int
		ID         string
	}
	raw, err := os.ReadFile(filepath.Join(testkit.SharedDir(), "secrets", "notes_mixed.expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &spans); err != nil {
		t.Fatal(err)
	}
	if len(spans) == 0 {
		t.Fatal("no expected secrets")
	}
	env := hooktest.NewEnvWith(t, true, append(append([]hooktest.Source(nil), hooktest.DefaultSources...),
		hooktest.Source{From: "secrets/notes_mixed.md", To: "ops/notes_mixed.md"})...)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[hooks]\nprompt_budget_tokens = 20000\npretool_budget_tokens = 20000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prompt := hooktest.BuildDir(t, "../userprompt")
	tool := hooktest.Build(t)
	for _, tc := range []struct {
		name, event, bin string
		stdin            string
	}{
		{"prompt", "UserPromptSubmit", prompt, `{"hook_event_name":"UserPromptSubmit","prompt":"ops scratchpad: which aws access key, github token and slack bot token did I note down?"}`},
		{"grep", "PreToolUse", tool, `{"hook_event_name":"PreToolUse","tool_name":"Grep","tool_input":{"pattern":"ANTHROPIC_API_KEY|SLACK_BOT_TOKEN|aws_access_key_id|client_secret"}}`},
		{"websearch", "PreToolUse", tool, `{"hook_event_name":"PreToolUse","tool_name":"WebSearch","tool_input":{"query":"ops scratchpad password token api key connection string"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := hooktest.Run(t, tc.bin, []byte(tc.stdin), env.Vars, "VAULTCTX_CONFIG="+cfg)
			block := parse(t, tc.event, r)
			note := "\n" + env.Vault + "/ops/notes_mixed.md\n"
			if !strings.Contains(block, note) {
				t.Fatalf("the secrets note is not in the context, so the check below proves nothing:\n%s", block)
			}
			// Both chunks of the note shown: every secret must be there as a
			// redaction marker.
			if strings.Count(block, note) == 2 {
				if n := strings.Count(block, "[REDACTED:"); n != len(spans) {
					t.Errorf("%d redaction markers, want %d:\n%s", n, len(spans), block)
				}
			}
			for _, s := range spans {
				if secret := string(text[s.Start:s.End]); bytes.Contains(r.Stdout, []byte(secret)) || strings.Contains(block, secret) {
					t.Errorf("output contains secret %s %q", s.ID, secret)
				}
			}
		})
	}
}
