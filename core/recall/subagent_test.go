package recall

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/hookio"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/vault"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// transcript copies lines to a session transcript <dir>/<id>.jsonl and
// returns its path.
func transcript(tb testing.TB, dir string, lines ...string) string {
	tb.Helper()
	p := filepath.Join(dir, "5e551011.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		tb.Fatal(err)
	}
	return p
}

// started writes the meta file Claude Code writes once a subagent for the
// Agent call toolUseID has started.
func started(tb testing.TB, transcriptPath, agentID, toolUseID string) {
	tb.Helper()
	dir := filepath.Join(strings.TrimSuffix(transcriptPath, ".jsonl"), "subagents")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	meta := `{"agentType":"general-purpose","isBuiltIn":true,"description":"x","toolUseId":"` + toolUseID + `","spawnDepth":1,"requestShape":"foreground"}`
	if err := os.WriteFile(filepath.Join(dir, "agent-"+agentID+".meta.json"), []byte(meta), 0o600); err != nil {
		tb.Fatal(err)
	}
}

func assistantCalls(msgID string, calls ...string) string {
	return `{"type":"assistant","isSidechain":false,"message":{"id":"` + msgID + `","role":"assistant","content":[` + strings.Join(calls, ",") + `]}}`
}

func agentUse(id, typ, description, prompt string) string {
	in := `"description":"` + description + `","prompt":"` + prompt + `"`
	if typ != "" {
		in += `,"subagent_type":"` + typ + `"`
	}
	return `{"type":"tool_use","id":"` + id + `","name":"Agent","input":{` + in + `}}`
}

// deepAgentUse is agentUse with a further input field nesting 100,000
// arrays deep, ten times hookio.MaxDepth.
func deepAgentUse(id, description, prompt string) string {
	const depth = 10 * hookio.MaxDepth
	return strings.Replace(agentUse(id, "", description, prompt), `"input":{`,
		`"input":{"x":`+strings.Repeat("[", depth)+strings.Repeat("]", depth)+`,`, 1)
}

// TestSubagentTask finds the Agent call a SubagentStart is about in the
// parent's transcript, and gives up when several are indistinguishable.
func TestSubagentTask(t *testing.T) {
	// Two parallel Agent calls, as Claude Code 2.1.332 wrote them (one
	// line per call, one message id), before either subagent started.
	real, err := os.ReadFile(filepath.Join("testdata", "transcripts", "agents-parallel.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(real)), "\n")
	user := `{"type":"user","message":{"role":"user","content":"delegate please"}}`
	bash := `{"type":"tool_use","id":"toolu_b","name":"Bash","input":{"command":"ls"}}`
	for _, tc := range []struct {
		name      string
		lines     []string
		started   map[string]string // agent id -> tool use id already started
		agentType string
		want      string
	}{
		{"one call", []string{user, assistantCalls("m1", agentUse("t1", "", "Find notes", "Find how to convert wide strings"))}, nil, "general-purpose",
			"Find notes\nFind how to convert wide strings"},
		{"real parallel calls, none started", lines, nil, "general-purpose", ""},
		{"real parallel calls, the second started", lines, map[string]string{"aee1": "toolu_a2"}, "general-purpose",
			"First task\nALPHA task: convert wide strings"},
		{"real parallel calls, the first started", lines, map[string]string{"aa4a": "toolu_a1"}, "general-purpose",
			"Second task\nBETA task: powershell recurse"},
		{"parallel calls of two types", []string{assistantCalls("m1", agentUse("t1", "Explore", "Explore", "map the repo"), agentUse("t2", "", "Write", "write the docs"))}, nil, "Explore",
			"Explore\nmap the repo"},
		{"the latest message with calls wins", []string{
			assistantCalls("m1", agentUse("t1", "", "Old", "an old task")), user,
			assistantCalls("m2", agentUse("t2", "", "New", "the new task"), bash)}, nil, "general-purpose", "New\nthe new task"},
		{"its subagent already started: a nested start", []string{assistantCalls("m1", agentUse("t1", "", "Outer", "outer task"))},
			map[string]string{"a0": "t1"}, "general-purpose", ""},
		{"no agent call", []string{user, assistantCalls("m1", bash)}, nil, "general-purpose", ""},
		// Agent calls whose lines nest past hookio.MaxDepth (issue 17):
		// each line is skipped like one that is not JSON, before any gjson
		// call, so the subagent gets the call before it or, with none, no
		// context. 100,000 levels (200 KB) fit the 1 MiB tail read.
		{"a call nested past the depth bound", []string{user, assistantCalls("m1", deepAgentUse("t1", "Deep", "a deep task"))}, nil, "", ""},
		{"a call before one nested past the depth bound", []string{
			assistantCalls("m1", agentUse("t1", "", "Find", "find it")),
			assistantCalls("m2", deepAgentUse("t2", "Deep", "a deep task"))}, nil, "", "Find\nfind it"},
		{"garbage lines", []string{"{not json", "", `{"type":"assistant"}`, assistantCalls("m1", agentUse("t1", "", "Find", "find it"))}, nil, "", "Find\nfind it"},
		{"a refused call", []string{assistantCalls("m1", agentUse("t1", "", "Find", "find it")),
			`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"denied"}]}}`}, nil, "", ""},
		{"a call long before the newest line", []string{
			strings.Replace(assistantCalls("m1", agentUse("t1", "", "Old", "an old task")), `{"type":"assistant",`, `{"type":"assistant","timestamp":"2026-12-02T02:00:00.000Z",`, 1),
			`{"type":"user","timestamp":"2026-12-02T02:30:00.000Z","message":{"role":"user","content":"next"}}`}, nil, "", ""},
		{"a call just before the newest line", []string{
			strings.Replace(assistantCalls("m1", agentUse("t1", "", "New", "a new task")), `{"type":"assistant",`, `{"type":"assistant","timestamp":"2026-12-02T02:29:59.000Z",`, 1),
			`{"type":"attachment","timestamp":"2026-12-02T02:30:00.000Z"}`}, nil, "", "New\na new task"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := transcript(t, t.TempDir(), tc.lines...)
			for agent, use := range tc.started {
				started(t, p, agent, use)
			}
			in := hookio.Input{Event: EventSubagentStart, SessionID: "s", TranscriptPath: p, AgentID: "a9", AgentType: tc.agentType}
			if got := SubagentTask(context.Background(), in); got != tc.want {
				t.Errorf("SubagentTask = %q, want %q", got, tc.want)
			}
		})
	}
	// The call written a little after SubagentStart fired, as the real
	// client sometimes does: SubagentTask waits for it.
	late := transcript(t, t.TempDir(), user)
	go func() {
		time.Sleep(SubagentWait / 5)
		f, err := os.OpenFile(late, os.O_APPEND|os.O_WRONLY, 0)
		if err == nil {
			f.WriteString(assistantCalls("m1", agentUse("t1", "", "Late", "a late task")) + "\n")
			f.Close()
		}
	}()
	if got := SubagentTask(context.Background(), hookio.Input{TranscriptPath: late, AgentID: "a1", AgentType: "general-purpose"}); got != "Late\na late task" {
		t.Errorf("a call written late: %q", got)
	}
	if got := SubagentTask(context.Background(), hookio.Input{TranscriptPath: filepath.Join(t.TempDir(), "missing.jsonl"), AgentID: "a"}); got != "" {
		t.Errorf("missing transcript: %q", got)
	}
	if got := SubagentTask(context.Background(), hookio.Input{TranscriptPath: t.TempDir(), AgentID: "a"}); got != "" {
		t.Errorf("a folder for a transcript: %q", got)
	}
}

// promptIndex indexes the cpp-docs text notes (BM25 only) under
// t.TempDir() and returns a config for it, with the session state in a
// fresh XDG_STATE_HOME.
func promptIndex(t *testing.T) config.Config {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := filepath.Join(t.TempDir(), "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora", "large", "cpp-docs", "docs", "text"), filepath.Join(root, "cpp-text"))
	db := filepath.Join(t.TempDir(), "index.db")
	if _, err := index.Run(context.Background(), index.Options{Vault: root, DB: db, Full: true, NoModel: true, Rules: vault.Rules{MaxFileBytes: 5 << 20}}); err != nil {
		t.Fatal(err)
	}
	cfg := config.Defaults()
	cfg.DB = db
	if _, err := CalibrateIndex(context.Background(), cfg); err != nil { // as `vaultctx index` does
		t.Fatal(err)
	}
	return cfg
}

// headings returns the "### " lines of a context hook's output.
func headings(tb testing.TB, out []byte) []string {
	tb.Helper()
	var hs []string
	for _, l := range strings.Split(string(out), `\n`) {
		if strings.HasPrefix(l, "### ") {
			hs = append(hs, l)
		}
	}
	return hs
}

// TestSessionStartResets: the same prompt twice in a session repeats no
// chunk; a SessionStart with source compact (or clear) makes the session
// forget, so the prompt gets its first answer again; startup and resume
// change nothing, and a subagent's own state survives its parent's reset.
func TestSessionStartResets(t *testing.T) {
	cfg := promptIndex(t)
	// Not a test of the relevance floor: on this small vault the
	// calibrated floor keeps silent on the prompt (FLOOR.md, "What the
	// floor cannot do"), so a lenient one lets the block be printed.
	cfg.Hooks.MinEvidence = 0.5
	ctx := context.Background()
	prompt := input(t, `{"hook_event_name":"UserPromptSubmit","session_id":"sess-1","prompt":"How do I convert a wide character string to a multibyte string in C++?"}`)
	ask := func() []string {
		t.Helper()
		out, err := PromptHook(ctx, cfg, prompt, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return headings(t, out)
	}
	start := func(source string) {
		t.Helper()
		out, err := PromptHook(ctx, cfg, input(t, `{"hook_event_name":"SessionStart","session_id":"sess-1","source":"`+source+`"}`), Options{})
		if err != nil || out != nil {
			t.Fatalf("SessionStart %s: %q, %v; want nothing", source, out, err)
		}
	}
	first := ask()
	if len(first) == 0 {
		t.Fatal("the first prompt got no context")
	}
	second := ask()
	for _, h := range second {
		if slices.Contains(first, h) {
			t.Errorf("the second answer repeats %q", h)
		}
	}
	// A subagent of the session asks the same: its own state starts empty.
	sub := input(t, `{"hook_event_name":"PreToolUse","session_id":"sess-1","agent_id":"a1","agent_type":"general-purpose","tool_name":"WebSearch","tool_input":{"query":"convert a wide character string to a multibyte string in C++"}}`)
	out, err := PreTool(ctx, cfg, sub, Options{})
	subFirst := headings(t, out)
	if err != nil || len(subFirst) == 0 {
		t.Fatalf("the subagent got %q, %v; want context the parent was already shown", out, err)
	}
	for _, source := range []string{"startup", "resume"} {
		start(source)
		for _, h := range ask() {
			if slices.Contains(first, h) {
				t.Errorf("after SessionStart %s the answer repeats %q", source, h)
			}
		}
	}
	for _, source := range ResetSources {
		start(source)
		if again := ask(); !slices.Equal(again, first) {
			t.Errorf("after SessionStart %s: %q, want the first answer %q", source, again, first)
		}
	}
	// The subagent's state was left alone: it still repeats nothing.
	out, err = PreTool(ctx, cfg, sub, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headings(t, out) {
		if slices.Contains(subFirst, h) {
			t.Errorf("after its parent's reset the subagent is shown %q again", h)
		}
	}
}

// TestSubagentStartContext: a SubagentStart whose Agent call is in the
// parent's transcript gets context for that task under its own event
// name; one whose call cannot be found gets nothing.
func TestSubagentStartContext(t *testing.T) {
	cfg := promptIndex(t)
	// Not a test of the relevance floor: on this small vault the
	// calibrated floor keeps silent on the prompt (FLOOR.md, "What the
	// floor cannot do"), so a lenient one lets the block be printed.
	cfg.Hooks.MinEvidence = 0.5
	ctx := context.Background()
	p := transcript(t, t.TempDir(), assistantCalls("m1", agentUse("t1", "", "Convert wide strings", "Find out how to convert a wide character string to a multibyte string in C++")))
	in := hookio.Input{Event: EventSubagentStart, SessionID: "s", TranscriptPath: p, AgentID: "a1", AgentType: "general-purpose"}
	out, err := PromptHook(ctx, cfg, in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"## Relevant Memory Context`) {
		t.Fatalf("SubagentStart answered %s", out)
	}
	for _, p := range contextPaths(t, out) {
		if _, err := os.Stat(p); err != nil || !strings.Contains(p, "/cpp-text/") {
			t.Errorf("named %q: %v", p, err)
		}
	}
	in.TranscriptPath = filepath.Join(t.TempDir(), "none.jsonl")
	if out, err := PromptHook(ctx, cfg, in, Options{}); out != nil || err != nil {
		t.Errorf("without the transcript: %s, %v; want nothing", out, err)
	}
	off := cfg
	f := false
	off.Hooks.UserPrompt = &f
	in.TranscriptPath = p
	if out, err := PromptHook(ctx, off, in, Options{}); out != nil || err != nil {
		t.Errorf("hooks.userprompt = false: %s, %v; want nothing", out, err)
	}
}
