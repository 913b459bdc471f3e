package hookio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// DefaultDeadline is a hook's internal deadline when none is configured:
// 1.5 s, well below Claude Code's hook timeouts.
const DefaultDeadline = 1500 * time.Millisecond

// EnvLog names the environment variable that turns on the debug log: its
// value is a file path the log is appended to (created with mode 0600).
const EnvLog = "VAULTCTX_LOG"

// EnvDeadline names the environment variable that overrides a hook's
// deadline, as a Go duration ("800ms", "2s"). Invalid or non-positive
// values are ignored.
const EnvDeadline = "VAULTCTX_HOOK_DEADLINE"

// ErrDeadline is reported (on stderr) when a handler does not finish before
// the hook's deadline.
var ErrDeadline = errors.New("hook deadline exceeded")

// Handler answers one decoded hook payload. It returns the exact protocol
// bytes to print (a JSON object, see ContextOutput and BashOutput), or nil
// to print nothing. It should honour ctx, which carries the deadline and the
// debug logger (see Logger).
type Handler func(ctx context.Context, in Input) ([]byte, error)

// Env holds what Run takes from the process, so the runner can be driven in
// tests. Getenv may be nil (no environment).
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

// Run is the whole life of a hook process: it reads stdin (capped at
// MaxInput(event)), applies the deadline (deadline <= 0 means
// DefaultDeadline; VAULTCTX_HOOK_DEADLINE overrides it), calls h and writes
// its output. It returns the exit status, which is always 0: errors,
// panics, timeouts, payloads of another event and invalid handler output
// all lead to empty stdout and one line on stderr. A process wired to
// further events names them in also (the prompt hook also answers
// SessionStart and SubagentStart); a payload whose hook_event_name is set
// and is neither event nor one of also is ignored silently, and h tells
// the events apart by Input.Event. Call it as os.Exit(hookio.Run(...)).
//
// Run installs no signal handlers: SIGINT or SIGTERM end the process at
// once, before it has printed anything (the output is one write at the
// end). Listening for them starts a goroutine and a thread locked to
// manage signal masks, about 1 ms of a hook that must answer in 15.
func Run(event string, deadline time.Duration, h Handler, also ...string) int {
	return RunEnv(context.Background(), Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}, event, deadline, h, also...)
}

// RunEnv is Run with an explicit parent context and process environment.
// It always returns 0.
func RunEnv(ctx context.Context, env Env, event string, deadline time.Duration, h Handler, also ...string) int {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	logger, closeLog := openLog(getenv(EnvLog))
	defer closeLog()
	if d, err := time.ParseDuration(getenv(EnvDeadline)); err == nil && d > 0 {
		deadline = d
	}
	if deadline <= 0 {
		deadline = DefaultDeadline
	}
	start := time.Now()
	out, got, err := runHandler(ctx, env.Stdin, append([]string{event}, also...), deadline, logger, h)
	if got != "" {
		event = got // name the payload's event in the log and on stderr
	}
	if err != nil {
		logger.Debug("hook failed open", "event", event, "err", err, "elapsed", time.Since(start))
		fmt.Fprintf(env.Stderr, "vaultctx %s: %s\n", event, oneLine(err.Error()))
		return 0
	}
	logger.Debug("hook done", "event", event, "bytes", len(out), "elapsed", time.Since(start))
	if len(out) > 0 {
		_, _ = env.Stdout.Write(out)
	}
	return 0
}

// runHandler reads and checks the input, runs h under the deadline with
// panic recovery, and checks h's output. events[0] is the hook's own event
// (it sets the stdin cap), the rest the others it answers. A nil output
// with a nil error means "print nothing". event is the payload's
// hook_event_name when it was read and is one of events, else "".
func runHandler(ctx context.Context, stdin io.Reader, events []string, deadline time.Duration, logger *slog.Logger, h Handler) (out []byte, event string, err error) {
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	ctx = context.WithValue(ctx, loggerKey{}, logger)

	type result struct {
		out   []byte
		event string
		err   error
	}
	done := make(chan result, 1)
	go func() {
		var event string
		defer func() {
			if p := recover(); p != nil {
				logger.Debug("hook panic", "panic", p, "stack", string(debug.Stack()))
				done <- result{event: event, err: fmt.Errorf("panic: %v", p)}
			}
		}()
		in, err := ReadInput(stdin, MaxInput(events[0]))
		if err != nil {
			done <- result{err: err}
			return
		}
		if in.Event != "" && !slices.Contains(events, in.Event) {
			logger.Debug("ignoring payload of another event", "want", events, "got", in.Event)
			done <- result{}
			return
		}
		event = in.Event
		out, err := h(ctx, in)
		done <- result{out: out, event: event, err: err}
	}()

	select {
	case r := <-done:
		if r.err != nil {
			return nil, r.event, r.err
		}
		if len(r.out) == 0 {
			return nil, r.event, nil
		}
		if err := checkOutput(r.out); err != nil {
			return nil, r.event, err
		}
		return r.out, r.event, nil
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, "", fmt.Errorf("%w (%s)", ErrDeadline, deadline)
		}
		return nil, "", fmt.Errorf("hook cancelled: %w", ctx.Err())
	}
}

// checkOutput guards the protocol: the output must be one JSON object and
// must never carry a blocking or permission decision or rewrite tool input.
func checkOutput(out []byte) error {
	trimmed := bytes.TrimSpace(out)
	if len(trimmed) == 0 || trimmed[0] != '{' || !Valid(trimmed) {
		return errors.New("handler produced invalid JSON output")
	}
	for _, path := range []string{"decision", "continue", "hookSpecificOutput.permissionDecision", "hookSpecificOutput.updatedInput", "hookSpecificOutput.decision"} {
		if gjson.GetBytes(trimmed, path).Exists() {
			return fmt.Errorf("handler produced forbidden field %q", path)
		}
	}
	return nil
}

type loggerKey struct{}

// Logger returns the debug logger carried by a handler's context, or a
// logger that discards everything.
func Logger(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok && l != nil {
		return l
	}
	return slog.New(slog.DiscardHandler)
}

// openLog opens the VAULTCTX_LOG file for appending. An empty path or a file
// that cannot be opened gives a discarding logger: logging must never make a
// hook fail.
func openLog(path string) (*slog.Logger, func()) {
	if path == "" {
		return slog.New(slog.DiscardHandler), func() {}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return slog.New(slog.DiscardHandler), func() {}
	}
	l := slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return l, func() { _ = f.Close() }
}

// oneLine keeps an error message on one stderr line.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", " ")
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}
