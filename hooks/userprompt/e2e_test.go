package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/claudetest"
	"github.com/vaultctx/vaultctx/internal/hooktest"
)

// convertPrompt is a question the test vault (hooktest.DefaultSources)
// answers.
const convertPrompt = "How do I convert a wide character string to a multibyte string with wcstombs_s in C++?"

// checkPaths fails the test unless every hit names a file that exists.
func checkPaths(t *testing.T, hits []string) {
	t.Helper()
	for _, h := range hits {
		p := h[strings.IndexByte(h, '\n')+1:]
		if _, err := os.Stat(p); err != nil {
			t.Errorf("the context names %s, which does not exist: %v", p, err)
		}
	}
}

// checkClean fails the test when a run exited non-zero or its debug log
// shows a hook error, timeout or invalid setting.
func checkClean(t *testing.T, r claudetest.Result) {
	t.Helper()
	if r.Code != 0 {
		t.Fatalf("claude exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	for _, p := range r.HookProblems() {
		t.Errorf("debug log: %s", p)
	}
}

// TestClaudeCodeReceivesContext runs the real Claude Code CLI with the
// installed hooks on a small real index: the context block the
// UserPromptSubmit hook prints must reach the model in the first request,
// after the prompt, naming notes by paths that exist.
func TestClaudeCodeReceivesContext(t *testing.T) {
	cli := claudetest.Claude(t)
	env := hooktest.NewEnv(t, false)
	bins := claudetest.BuildHooks(t)
	mock := claudetest.NewMock(t, claudetest.Say("Use WideCharToMultiByte."))
	s := claudetest.NewSession(t, cli, mock)
	s.WireHooks(t, bins)
	rec := s.RecordHooks(t, "UserPromptSubmit")
	s.Env = env.Vars // HOME, XDG folders, VAULTCTX_DB and a generous deadline

	r := s.Run(t, convertPrompt)
	checkClean(t, r)
	t.Logf("claude -p took %v", r.Elapsed)
	msgs := mock.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d requests to /v1/messages, want 1", len(msgs))
	}
	if text := msgs[0].Text("user"); !strings.Contains(text, convertPrompt) {
		t.Errorf("the prompt did not reach the model:\n%.3000s", text)
	}
	// 2.1.332 sends the context as a system-role message after the prompt.
	text := msgs[0].Text("system")
	for _, want := range []string{"UserPromptSubmit hook additional context: ## Relevant Memory Context",
		"\n" + env.Vault + "/cpp-text/how-to-convert-between-various-string-types.md\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("the hook's context (%q) did not reach the model:\n%.3000s", want, text)
		}
	}
	ctx := msgs[0].HookContexts("UserPromptSubmit")
	if len(ctx) != 1 {
		t.Fatalf("%d UserPromptSubmit contexts, want 1", len(ctx))
	}
	checkPaths(t, claudetest.Hits(ctx[0]))
	var ours []claudetest.HookRun
	for _, h := range r.HookRuns() {
		if strings.Contains(h.Command, "vaultctx-") {
			ours = append(ours, h)
		}
	}
	// SessionStart runs the prompt hook too (the index refresh).
	if len(ours) != 2 || ours[0].Event != "SessionStart:startup" || ours[1].Event != "UserPromptSubmit" || ours[0].Status != 0 || ours[1].Status != 0 {
		t.Errorf("hook runs %+v, want SessionStart:startup and UserPromptSubmit, both exiting 0", ours)
	}
	in := claudetest.RecordedInputs(t, rec, "UserPromptSubmit")
	if len(in) != 1 || in[0].Prompt != convertPrompt || in[0].SessionID != r.Output.Get("session_id").String() {
		t.Errorf("the hook was sent %+v", in)
	}
}

// TestClaudeCodeSessionLife runs one session four times: a prompt, the
// same prompt with --resume, /compact with --resume, and the prompt again.
// The resumed prompt must repeat no chunk the first run showed; /compact
// fires SessionStart with source "compact" and the same session_id, after
// which the prompt gets its first answer again. The hook runs for every
// SessionStart source.
func TestClaudeCodeSessionLife(t *testing.T) {
	cli := claudetest.Claude(t)
	env := hooktest.NewEnv(t, false)
	bins := claudetest.BuildHooks(t)
	mock := claudetest.NewMock(t,
		claudetest.Say("Use WideCharToMultiByte."),
		claudetest.Say("See the notes above."),
		claudetest.Say("<summary>The user asked how to convert wide strings to multibyte strings in C++.</summary>"),
		claudetest.Say("As before: WideCharToMultiByte."))
	s := claudetest.NewSession(t, cli, mock)
	s.WireHooks(t, bins)
	rec := s.RecordHooks(t, "UserPromptSubmit", "SessionStart", "PreCompact")
	s.Env = env.Vars

	r1 := s.Run(t, convertPrompt)
	checkClean(t, r1)
	id := r1.Output.Get("session_id").String()
	if id == "" {
		t.Fatalf("no session_id in %s", r1.Stdout)
	}
	r2 := s.Run(t, convertPrompt, "--resume", id)
	checkClean(t, r2)
	r3 := s.Run(t, "/compact", "--resume", id)
	checkClean(t, r3)
	r4 := s.Run(t, convertPrompt, "--resume", id)
	checkClean(t, r4)
	for i, r := range []claudetest.Result{r2, r3, r4} {
		if got := r.Output.Get("session_id").String(); got != id {
			t.Errorf("run %d is session %s, want %s", i+2, got, id)
		}
	}

	msgs := mock.Messages()
	if len(msgs) != 4 {
		t.Fatalf("%d requests, want 4 (prompt, resumed prompt, compaction, prompt after it)", len(msgs))
	}
	first := msgs[0].HookContexts("UserPromptSubmit")
	if len(first) != 1 || len(claudetest.Hits(first[0])) == 0 {
		t.Fatalf("the first prompt got contexts %q, want one naming notes", first)
	}
	checkPaths(t, claudetest.Hits(first[0]))
	hits := claudetest.Chunks(first[0])

	// --resume: the request carries the first turn's context again (it is
	// part of the conversation) and at most one new one, which repeats
	// none of its chunks.
	resumed := msgs[1].HookContexts("UserPromptSubmit")
	if len(resumed) < 1 || resumed[0] != first[0] {
		t.Errorf("the resumed request lost the first context: %q", resumed)
	}
	if len(resumed) > 2 {
		t.Errorf("%d contexts in the resumed request, want at most 2", len(resumed))
	}
	for _, ctx := range resumed[1:] {
		for _, h := range claudetest.Chunks(ctx) {
			if slices.Contains(hits, h) {
				t.Errorf("the resumed prompt was shown %q again", h)
			}
		}
		checkPaths(t, claudetest.Hits(ctx))
	}

	// /compact: a summary request, then SessionStart "compact" for the same
	// session; the prompt after it gets the first answer again.
	if !strings.Contains(msgs[2].Text("user"), "summary") {
		t.Errorf("the third request is not the compaction:\n%.500s", msgs[2].Text("user"))
	}
	after := msgs[3].HookContexts("UserPromptSubmit")
	if len(after) == 0 {
		t.Fatal("the prompt after /compact got no context")
	}
	if got := claudetest.Chunks(after[len(after)-1]); !slices.Equal(got, hits) {
		t.Errorf("after /compact the prompt was shown %q, want the first answer %q", got, hits)
	}
	var sources []string
	for _, in := range claudetest.RecordedInputs(t, rec, "SessionStart") {
		sources = append(sources, in.Source)
		if in.SessionID != id {
			t.Errorf("SessionStart %s names session %s, want %s", in.Source, in.SessionID, id)
		}
	}
	if want := []string{"startup", "resume", "resume", "compact", "resume"}; !slices.Equal(sources, want) {
		t.Errorf("SessionStart sources %q, want %q", sources, want)
	}
	if pc := claudetest.RecordedInputs(t, rec, "PreCompact"); len(pc) != 1 {
		t.Errorf("%d PreCompact payloads, want 1", len(pc))
	}
	prompts := claudetest.RecordedInputs(t, rec, "UserPromptSubmit")
	if len(prompts) != 3 {
		t.Errorf("%d UserPromptSubmit payloads, want 3 (/compact fires none)", len(prompts))
	}
	// The hook runs at every source (it refreshes the index there), and
	// resets the session's state after compact.
	compacted, onResume := false, false
	for _, h := range r3.HookRuns() {
		if h.Event == "SessionStart:compact" && strings.Contains(h.Command, "vaultctx-userprompt") {
			compacted = h.Status == 0
		}
		if h.Event == "SessionStart:resume" && strings.Contains(h.Command, "vaultctx-userprompt") {
			onResume = h.Status == 0
		}
	}
	if !compacted || !onResume {
		t.Errorf("the prompt hook did not run (exit 0) for SessionStart:compact and :resume: %+v", r3.HookRuns())
	}
}

// TestClaudeCodeTaskNotification launches a background agent whose task
// and result are about the vault's topic. When it finishes, Claude Code
// sends a <task-notification> as the prompt of a UserPromptSubmit; the
// hook must add nothing to that turn.
func TestClaudeCodeTaskNotification(t *testing.T) {
	cli := claudetest.Claude(t)
	env := hooktest.NewEnv(t, false)
	bins := claudetest.BuildHooks(t)
	// The background agent and the parent ask concurrently: every reply
	// after the Agent call is the same text, the agent's result.
	result := claudetest.Say("Use WideCharToMultiByte or wcstombs_s to convert a wide character string to a multibyte string safely.")
	mock := claudetest.NewMock(t,
		claudetest.Use("toolu_bg", "Agent", map[string]any{
			"description": "Convert wide strings to multibyte",
			"prompt":      "Find out how to convert a wide character string to a multibyte string with wcstombs_s in C++.",
		}),
		result, result, result, result)
	s := claudetest.NewSession(t, cli, mock)
	s.WireHooks(t, bins)
	rec := s.RecordHooks(t, "UserPromptSubmit", "SubagentStart")
	s.Env = env.Vars

	r := s.Run(t, convertPrompt, "--allowedTools", "Agent")
	checkClean(t, r)
	var note string
	for _, in := range claudetest.RecordedInputs(t, rec, "UserPromptSubmit") {
		if strings.HasPrefix(in.Prompt, "<task-notification>") {
			note = in.Prompt
		}
	}
	if note == "" {
		t.Fatal("Claude Code sent no <task-notification> prompt")
	}
	if !strings.Contains(note, "wide character string") {
		t.Errorf("the notification does not carry the agent's result:\n%s", note)
	}
	var last claudetest.Request
	for _, m := range mock.Messages() {
		if strings.Contains(m.Text("user"), "<task-notification>") {
			last = m
		}
	}
	if last.Body == nil {
		t.Fatal("no request carried the notification")
	}
	// One context, the first prompt's; none for the notification.
	if ctx := last.HookContexts("UserPromptSubmit"); len(ctx) != 1 {
		t.Errorf("%d UserPromptSubmit contexts after the notification, want 1 (the first prompt's)", len(ctx))
	}
	runs := 0
	for _, h := range r.HookRuns() {
		if h.Event == "UserPromptSubmit" && strings.Contains(h.Command, "vaultctx-userprompt") {
			runs++
		}
	}
	if runs != 2 {
		t.Errorf("the prompt hook ran %d times, want 2 (the prompt, the notification)", runs)
	}
}

// TestClaudeCodeSubagentContext has the scripted model call the Agent tool
// (in the foreground) with a task the vault answers: the SubagentStart
// answer must reach the subagent's first request, naming notes that
// exist, and not the parent's.
func TestClaudeCodeSubagentContext(t *testing.T) {
	cli := claudetest.Claude(t)
	env := hooktest.NewEnv(t, false)
	bins := claudetest.BuildHooks(t)
	task := "Find out how to convert a wide character string to a multibyte string with wcstombs_s in C++."
	mock := claudetest.NewMock(t,
		claudetest.Use("toolu_agent", "Agent", map[string]any{
			"description": "Wide to multibyte strings", "prompt": task, "run_in_background": false,
		}),
		claudetest.Say("Use WideCharToMultiByte."),
		claudetest.Say("The subagent says: use WideCharToMultiByte."))
	s := claudetest.NewSession(t, cli, mock)
	s.WireHooks(t, bins)
	rec := s.RecordHooks(t, "SubagentStart", "PreToolUse")
	s.Env = env.Vars

	r := s.Run(t, "delegate this to a subagent", "--allowedTools", "Agent")
	checkClean(t, r)
	msgs := mock.Messages()
	if len(msgs) != 3 {
		t.Fatalf("%d requests, want 3 (parent, subagent, parent)", len(msgs))
	}
	if !strings.Contains(msgs[1].Text("user"), task) {
		t.Fatalf("the second request is not the subagent's:\n%.1000s", msgs[1].Text("user"))
	}
	ctx := msgs[1].HookContexts("SubagentStart")
	if len(ctx) != 1 || !strings.HasPrefix(ctx[0], "## Relevant Memory Context") || len(claudetest.Hits(ctx[0])) == 0 {
		t.Fatalf("the subagent's first request has SubagentStart contexts %q, want one naming notes", ctx)
	}
	checkPaths(t, claudetest.Hits(ctx[0]))
	for _, i := range []int{0, 2} {
		if got := msgs[i].HookContexts("SubagentStart"); len(got) != 0 {
			t.Errorf("the parent's request %d holds the subagent's context", i)
		}
	}
	starts := claudetest.RecordedInputs(t, rec, "SubagentStart")
	if len(starts) != 1 || starts[0].AgentID == "" || starts[0].AgentType != "general-purpose" || starts[0].TranscriptPath == "" {
		t.Errorf("SubagentStart payloads %+v", starts)
	}
	if pre := claudetest.RecordedInputs(t, rec, "PreToolUse"); len(pre) != 1 || pre[0].ToolName != "Agent" || pre[0].ToolInput.Get("prompt").String() != task {
		t.Errorf("PreToolUse payloads %+v", pre)
	}
	// The PreToolUse answer for the Agent call reaches the parent only.
	if got := msgs[2].HookContexts("PreToolUse:Agent"); len(got) != 1 || len(claudetest.Hits(got[0])) == 0 {
		t.Errorf("the parent's request after the Agent call has PreToolUse contexts %q, want one", got)
	}
	if got := msgs[1].HookContexts("PreToolUse:Agent"); len(got) != 0 {
		t.Errorf("the subagent's request holds the parent's PreToolUse context")
	}
}
