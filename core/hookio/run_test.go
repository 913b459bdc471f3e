package hookio

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const promptPayload = `{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"how do wide strings convert"}`

func runOnce(t *testing.T, stdin string, env map[string]string, deadline time.Duration, h Handler) (stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := RunEnv(context.Background(), Env{
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] },
	}, "UserPromptSubmit", deadline, h)
	if code != 0 {
		t.Fatalf("exit status %d, want 0", code)
	}
	return out.String(), errb.String()
}

func TestRunFailsOpen(t *testing.T) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	ok := func(ctx context.Context, in Input) ([]byte, error) {
		return ContextOutput("UserPromptSubmit", "ctx for "+in.Prompt), nil
	}
	for _, c := range []struct {
		name       string
		stdin      string
		h          Handler
		wantOut    string
		wantStderr bool
	}{
		{"success", promptPayload, ok, string(ContextOutput("UserPromptSubmit", "ctx for how do wide strings convert")), false},
		{"nothing to say", promptPayload, func(context.Context, Input) ([]byte, error) { return nil, nil }, "", false},
		{"handler error", promptPayload, func(context.Context, Input) ([]byte, error) { return nil, errors.New("db locked\nsecond line") }, "", true},
		{"panic", promptPayload, func(context.Context, Input) ([]byte, error) { panic("boom") }, "", true},
		{"deadline", promptPayload, func(context.Context, Input) ([]byte, error) { <-block; return []byte(`{}`), nil }, "", true},
		{"garbage stdin", "\x00\x01garbage", ok, "", true},
		{"empty stdin", "", ok, "", true},
		{"other event", `{"hook_event_name":"PreToolUse","tool_name":"Grep"}`, ok, "", false},
		{"invalid output", promptPayload, func(context.Context, Input) ([]byte, error) { return []byte("plain text"), nil }, "", true},
		{"forbidden decision", promptPayload, func(context.Context, Input) ([]byte, error) { return []byte(`{"decision":"block"}`), nil }, "", true},
		{"forbidden permission", promptPayload, func(context.Context, Input) ([]byte, error) {
			return []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`), nil
		}, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut := runOnce(t, c.stdin, nil, 50*time.Millisecond, c.h)
			if out != c.wantOut {
				t.Errorf("stdout = %q, want %q", out, c.wantOut)
			}
			if c.wantStderr != (errOut != "") {
				t.Errorf("stderr = %q, want stderr: %v", errOut, c.wantStderr)
			}
			if strings.Count(errOut, "\n") > 1 {
				t.Errorf("stderr has more than one line: %q", errOut)
			}
		})
	}
}

// TestRunAlsoEvents checks that a hook wired to further events gets their
// payloads, and still ignores any other event's.
func TestRunAlsoEvents(t *testing.T) {
	h := func(ctx context.Context, in Input) ([]byte, error) {
		return ContextOutput(in.Event, "for "+in.Event+" "+in.Source), nil
	}
	for _, c := range []struct{ stdin, want string }{
		{promptPayload, string(ContextOutput("UserPromptSubmit", "for UserPromptSubmit "))},
		{`{"hook_event_name":"SessionStart","source":"compact"}`, string(ContextOutput("SessionStart", "for SessionStart compact"))},
		{`{"hook_event_name":"PreToolUse","tool_name":"Grep"}`, ""},
	} {
		var out, errb bytes.Buffer
		RunEnv(context.Background(), Env{Stdin: strings.NewReader(c.stdin), Stdout: &out, Stderr: &errb},
			"UserPromptSubmit", time.Minute, h, "SessionStart", "SubagentStart")
		if out.String() != c.want || errb.Len() != 0 {
			t.Errorf("%s: stdout %q, stderr %q; want %q", c.stdin, out.String(), errb.String(), c.want)
		}
	}
}

func TestRunDeadlineFromEnv(t *testing.T) {
	slow := func(ctx context.Context, in Input) ([]byte, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	start := time.Now()
	_, errOut := runOnce(t, promptPayload, map[string]string{EnvDeadline: "10ms"}, time.Hour, slow)
	if !strings.Contains(errOut, ErrDeadline.Error()) && !strings.Contains(errOut, "deadline") {
		t.Fatalf("stderr = %q, want a deadline message", errOut)
	}
	if time.Since(start) > time.Minute {
		t.Fatal("env deadline was not applied")
	}
}

func TestRunLog(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "hook.log")
	h := func(ctx context.Context, in Input) ([]byte, error) {
		Logger(ctx).Debug("handler ran", "prompt", in.Prompt)
		return nil, nil
	}
	out, _ := runOnce(t, promptPayload, map[string]string{EnvLog: logPath}, 0, h)
	if out != "" {
		t.Fatalf("stdout = %q, want empty", out)
	}
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "handler ran") {
		t.Fatalf("log lacks handler message: %q", data)
	}
	if info, _ := os.Stat(logPath); info.Mode().Perm() != 0o600 {
		t.Errorf("log mode %v, want 0600", info.Mode().Perm())
	}
}

// TestRunInputCap checks the per-event stdin cap: a payload over
// DefaultMaxInput reaches a PostToolUse handler (it carries a whole tool
// output) but not a context hook's, and one over MaxPostToolUseInput is
// refused for every event.
func TestRunInputCap(t *testing.T) {
	payload := func(event string, size int64) string {
		return `{"hook_event_name":"` + event + `","tool_name":"Bash","tool_response":{"stdout":"` + strings.Repeat("x", int(size)) + `"}}`
	}
	for _, c := range []struct {
		event  string
		size   int64
		called bool
	}{
		{"PostToolUse", DefaultMaxInput + 1, true},
		{"UserPromptSubmit", DefaultMaxInput + 1, false},
		{"PostToolUse", MaxPostToolUseInput + 1, false},
	} {
		called := false
		var out, errb bytes.Buffer
		RunEnv(context.Background(), Env{Stdin: strings.NewReader(payload(c.event, c.size)), Stdout: &out, Stderr: &errb}, c.event, time.Minute,
			func(ctx context.Context, in Input) ([]byte, error) {
				called = true
				return nil, nil
			})
		if called != c.called {
			t.Errorf("%s, %d bytes: handler called = %v, want %v", c.event, c.size, called, c.called)
		}
		if !c.called && !strings.Contains(errb.String(), ErrInputTooLarge.Error()) {
			t.Errorf("%s, %d bytes: stderr %q, want the too-large error", c.event, c.size, errb.String())
		}
	}
}
