package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/settings"
)

// hookTimeout bounds a round trip when settings gives no timeout.
const hookTimeout = 10 * time.Second

// roundTrip returns the check that runs the hook wired to event with a
// sample payload, through sh as Claude Code does, and times it.
func roundTrip(event string) func(*doctor, context.Context) Finding {
	return func(d *doctor, ctx context.Context) Finding {
		command, timeout, note := "", hookTimeout, ""
		for _, x := range d.wiring {
			if x.Event != event {
				continue
			}
			switch {
			case x.State == Off:
				return passed("skipped: off in the config (hooks.%s = false)", x.Name)
			case x.State == NotWired && anyWired(d.wiring):
				return Finding{Status: Warn, Message: "skipped: not wired", Hint: HintWireOrTurnOff, Subject: x.Name}
			case x.State == WiredOff:
				note = fmt.Sprintf(" (hooks.%s = false)", x.Name)
			}
			if len(x.Commands) == 1 {
				command = x.Commands[0]
			}
		}
		for _, e := range d.entries {
			if e.Event == event && e.Ours && e.Timeout > 0 {
				timeout = time.Duration(e.Timeout * float64(time.Second))
			}
		}
		if command == "" {
			return failed(HintInstallHooks, "", "no %s hook wired", event)
		}
		payload, err := samplePayload(event)
		if err != nil {
			return failed(HintBug, "", "%v", err)
		}
		var env []string
		if d.opt.DB != "" {
			env = []string{config.EnvDB + "=" + d.opt.DB}
		}
		ms, out, stderr, err := runHook(ctx, command, payload, timeout, env)
		if err != nil {
			msg := strings.TrimSpace(stderr)
			if i := strings.IndexByte(msg, '\n'); i >= 0 {
				msg = msg[:i]
			}
			return failed(HintRunHook, handRun(event, command, env), "%v (%s)", err, msg)
		}
		if len(bytes.TrimSpace(out)) == 0 {
			return passed("%d ms, exit 0, no output for the sample%s", ms, note)
		}
		var resp struct {
			HookSpecificOutput struct {
				HookEventName string `json:"hookEventName"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(out, &resp); err != nil || resp.HookSpecificOutput.HookEventName != event {
			return failed(HintRebuildHooks, "", "%d ms, but stdout is not a %s hook response: %.80q", ms, event, out)
		}
		return passed("%d ms, exit 0, %d bytes of %s output", ms, len(out), event)
	}
}

// runHook runs command through sh with payload on stdin, as Claude Code
// does, with env (NAME=value) added to this process's environment, and
// returns its wall time in ms from spawn to exit, stdout and stderr. A
// non-zero exit or the timeout is an error.
func runHook(ctx context.Context, command string, payload []byte, timeout time.Duration, env []string) (int64, []byte, string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = io.MultiWriter(&stderr)
	start := time.Now()
	err := cmd.Run()
	ms := time.Since(start).Milliseconds()
	if ctx.Err() == context.DeadlineExceeded {
		return ms, nil, stderr.String(), fmt.Errorf("timed out after %v", timeout)
	}
	if err != nil {
		return ms, nil, stderr.String(), fmt.Errorf("%w after %d ms", err, ms)
	}
	return ms, stdout.Bytes(), stderr.String(), nil
}

// handPayloads are one-line stand-ins of samplePayload, by event, for a
// command line a user types: the fields each hook reads, and a Bash output
// too short to condense.
var handPayloads = map[string]string{
	"UserPromptSubmit": `{"session_id":"vaultctx-doctor","hook_event_name":"UserPromptSubmit","prompt":"Where did I write down how recurring tasks and due dates work?"}`,
	"PreToolUse":       `{"session_id":"vaultctx-doctor","hook_event_name":"PreToolUse","tool_name":"Grep","tool_input":{"pattern":"recurring tasks due date"}}`,
	"PostToolUse":      `{"session_id":"vaultctx-doctor","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_response":{"stdout":"ok","stderr":""}}`,
}

// handRun returns a shell command line that runs the hook command wired
// to event by hand, as a round trip runs it: through sh, with env
// (NAME=value) added, a sample payload (handPayloads) on stdin and the
// hook's debug log (VAULTCTX_LOG) on stderr, so that it shows why it
// fails. It works from any folder.
func handRun(event, command string, env []string) string {
	var b strings.Builder
	b.WriteString(`printf '%s\n' `)
	b.WriteString(settings.ShellQuote(handPayloads[event]))
	b.WriteString(" | ")
	for _, e := range env {
		name, value, _ := strings.Cut(e, "=")
		b.WriteString(name + "=" + settings.ShellQuote(value) + " ")
	}
	b.WriteString("VAULTCTX_LOG=/dev/stderr sh -c ")
	b.WriteString(settings.ShellQuote(command))
	return b.String()
}

// samplePayload returns a stdin payload for event shaped like Claude
// Code's (see ../shared/hook-payloads): a prompt, a Grep call, and a Bash
// result large enough to be condensed.
func samplePayload(event string) ([]byte, error) {
	wd, _ := os.Getwd()
	common := map[string]any{
		"session_id":      fmt.Sprintf("vaultctx-doctor-%d", os.Getpid()),
		"transcript_path": filepath.Join(os.TempDir(), "vaultctx-doctor-no-transcript.jsonl"),
		"cwd":             wd,
		"permission_mode": "default",
		"hook_event_name": event,
	}
	switch event {
	case "UserPromptSubmit":
		common["prompt"] = "Where did I write down how recurring tasks and due dates work?"
	case "PreToolUse":
		common["tool_name"] = "Grep"
		common["tool_input"] = map[string]any{"pattern": "recurring tasks due date", "path": wd}
		common["tool_use_id"] = "toolu_vaultctx_doctor_pre"
	case "PostToolUse":
		var b strings.Builder
		for i := range 300 {
			fmt.Fprintf(&b, "ok  \texample.com/project/pkg%03d\t0.%03ds\n", i, (i*37)%1000)
		}
		b.WriteString("FAIL\texample.com/project/store\t0.412s\n--- FAIL: TestReplace (0.01s)\n    store_test.go:88: got 3 rows, want 2\n")
		common["tool_name"] = "Bash"
		common["tool_input"] = map[string]any{"command": "go test ./...", "description": "Run the tests"}
		common["tool_response"] = map[string]any{"stdout": b.String(), "stderr": "", "interrupted": false, "isImage": false}
		common["tool_use_id"] = "toolu_vaultctx_doctor_post"
	default:
		return nil, fmt.Errorf("no sample payload for %s", event)
	}
	return json.Marshal(common)
}
