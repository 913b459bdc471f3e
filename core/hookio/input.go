package hookio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// DefaultMaxInput is the default cap on hook stdin: 8 MiB. Claude Code's
// payloads are far smaller (Bash output is itself capped), so anything larger
// is treated as an error and the hook fails open.
const DefaultMaxInput int64 = 8 << 20

// MaxPostToolUseInput is the cap on a PostToolUse payload, which carries a
// whole tool output: 16 MiB. A huge Bash output is then still condensed
// (core/compress reads at most a few MiB of it line by line) well within
// the deadline on a busy machine, and a larger one is refused at once, so
// it reaches Claude as is instead of waiting for the deadline.
const MaxPostToolUseInput int64 = 16 << 20

// MaxInput is the stdin cap Run applies to a hook of event:
// MaxPostToolUseInput for "PostToolUse", DefaultMaxInput for the others.
func MaxInput(event string) int64 {
	if event == "PostToolUse" {
		return MaxPostToolUseInput
	}
	return DefaultMaxInput
}

// ErrEmptyInput is returned by ReadInput when stdin holds nothing but
// whitespace.
var ErrEmptyInput = errors.New("empty hook input")

// ErrInputTooLarge is returned by ReadInput when stdin exceeds the cap.
var ErrInputTooLarge = errors.New("hook input too large")

// ErrMalformedInput is returned by ReadInput when stdin is not one JSON
// object.
var ErrMalformedInput = errors.New("malformed hook input")

// Input is the part of a hook payload vaultctx reads. Unknown fields are
// ignored; missing and null fields are empty (a known field of another JSON
// type makes ReadInput fail with ErrMalformedInput), and
// invalid UTF-8 in string fields becomes U+FFFD. ToolInput and ToolResponse are raw
// gjson views of the "tool_input" and "tool_response" values (their Exists
// method reports whether the field was present).
type Input struct {
	SessionID      string // "session_id"
	TranscriptPath string // "transcript_path" (JSONL; may be missing or lag)
	Cwd            string // "cwd"
	Event          string // "hook_event_name", e.g. "PostToolUse"
	Prompt         string // "prompt" (UserPromptSubmit)
	ToolName       string // "tool_name" (tool events)
	ToolUseID      string // "tool_use_id" (tool events)
	// Source is "source" (SessionStart): "startup", "resume", "clear" or
	// "compact" with Claude Code 2.1.332.
	Source string
	// AgentID is "agent_id": the subagent a SubagentStart or SubagentStop
	// is about, and the subagent a tool event runs in ("" in the main
	// conversation). Claude Code 2.1.332 sends the parent's session_id in
	// both cases.
	AgentID string
	// AgentType is "agent_type", e.g. "general-purpose" (with AgentID).
	AgentType    string
	ToolInput    gjson.Result
	ToolResponse gjson.Result
}

// ReadInput reads one hook payload from r, at most maxBytes bytes
// (maxBytes <= 0 means DefaultMaxInput), and decodes the fields of Input
// with gjson. It returns ErrEmptyInput, ErrInputTooLarge or
// ErrMalformedInput (wrapped) for input that is empty, larger than the cap,
// not a single valid JSON object, nested deeper than MaxDepth, or has a
// string field of the contract (session_id, prompt, tool_name, ...)
// holding another JSON type; and the read error for a failing reader.
func ReadInput(r io.Reader, maxBytes int64) (Input, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxInput
	}
	// Size the buffer once when stdin is a file of known size (a pipe
	// reports 0): a megabyte payload then costs one allocation.
	var buf bytes.Buffer
	if st, ok := r.(interface{ Stat() (os.FileInfo, error) }); ok {
		if info, err := st.Stat(); err == nil && info.Size() > 0 {
			buf.Grow(int(min(info.Size(), maxBytes) + 1))
		}
	}
	if _, err := buf.ReadFrom(io.LimitReader(r, maxBytes+1)); err != nil {
		return Input{}, fmt.Errorf("read hook input: %w", err)
	}
	data := buf.Bytes()
	if int64(len(data)) > maxBytes {
		return Input{}, fmt.Errorf("read hook input: %w (over %d bytes)", ErrInputTooLarge, maxBytes)
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return Input{}, fmt.Errorf("read hook input: %w", ErrEmptyInput)
	}
	if data[0] != '{' {
		return Input{}, fmt.Errorf("read hook input: %w", ErrMalformedInput)
	}
	// The depth first: gjson's validator recurses once per level (see
	// MaxDepth).
	if Depth(data, MaxDepth) > MaxDepth {
		return Input{}, fmt.Errorf("read hook input: %w: nested deeper than %d levels", ErrMalformedInput, MaxDepth)
	}
	if !gjson.ValidBytes(data) {
		return Input{}, fmt.Errorf("read hook input: %w", ErrMalformedInput)
	}
	// Parse a string copy so every Result (including ToolInput and
	// ToolResponse) stays valid independently of the reader's buffer.
	root := gjson.Parse(string(data))
	if !root.IsObject() {
		return Input{}, fmt.Errorf("read hook input: %w", ErrMalformedInput)
	}
	// One pass over the top-level keys: a Get per field would scan past a
	// megabyte of tool output several times. The first occurrence of a
	// duplicated key wins, as with gjson.Get.
	var in Input
	var mistyped error
	seen := map[string]bool{}
	root.ForEach(func(key, value gjson.Result) bool {
		k := key.Str
		if seen[k] {
			return true
		}
		seen[k] = true
		if stringFields[k] && value.Type != gjson.String && value.Type != gjson.Null && mistyped == nil {
			mistyped = fmt.Errorf("read hook input: %w: %q is %s, want a string", ErrMalformedInput, k, jsonType(value))
		}
		switch k {
		case "session_id":
			in.SessionID = str(value)
		case "transcript_path":
			in.TranscriptPath = str(value)
		case "cwd":
			in.Cwd = str(value)
		case "hook_event_name":
			in.Event = str(value)
		case "prompt":
			in.Prompt = str(value)
		case "tool_name":
			in.ToolName = str(value)
		case "tool_use_id":
			in.ToolUseID = str(value)
		case "source":
			in.Source = str(value)
		case "agent_id":
			in.AgentID = str(value)
		case "agent_type":
			in.AgentType = str(value)
		case "tool_input":
			in.ToolInput = value
		case "tool_response":
			in.ToolResponse = value
		}
		return true
	})
	if mistyped != nil {
		return Input{}, mistyped
	}
	return in, nil
}

// stringFields are the payload fields the hook contract defines as strings.
// One of another type means the payload is not what we think it is, so the
// hook answers nothing and says why on stderr rather than guess.
var stringFields = map[string]bool{
	"session_id": true, "transcript_path": true, "cwd": true, "hook_event_name": true,
	"prompt": true, "tool_name": true, "tool_use_id": true, "source": true, "agent_id": true,
	"agent_type": true,
}

func jsonType(r gjson.Result) string {
	switch {
	case r.IsObject():
		return "an object"
	case r.IsArray():
		return "an array"
	case r.Type == gjson.Number:
		return "a number"
	case r.Type == gjson.True, r.Type == gjson.False:
		return "a boolean"
	}
	return "not a string"
}

// str returns a string field's value and "" for any other JSON type, so a
// number or object where a string belongs never leaks its raw JSON.
func str(r gjson.Result) string {
	if r.Type != gjson.String {
		return ""
	}
	return validUTF8(r.Str)
}

// validUTF8 replaces each byte of an invalid UTF-8 sequence with U+FFFD, as
// encoding/json does, so hooks never pass invalid text on.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r) // utf8.RuneError for an invalid byte
		i += size
	}
	return b.String()
}
