package hookio

import (
	"bytes"
	"encoding/json"
)

// contextOutput and bashOutput fix the field order of the protocol JSON, so
// the bytes are deterministic.
type contextOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

type bashOutput struct {
	HookSpecificOutput struct {
		HookEventName     string         `json:"hookEventName"`
		UpdatedToolOutput bashToolOutput `json:"updatedToolOutput"`
	} `json:"hookSpecificOutput"`
}

// bashToolOutput is exactly the shape of Bash's tool_response; Claude Code
// silently ignores an updatedToolOutput of any other shape.
type bashToolOutput struct {
	Stdout      string `json:"stdout"`
	Stderr      string `json:"stderr"`
	Interrupted bool   `json:"interrupted"`
	IsImage     bool   `json:"isImage"`
}

// ContextOutput returns the protocol JSON that adds context to the model:
// {"hookSpecificOutput":{"hookEventName":event,"additionalContext":text}}
// followed by a newline. It returns nil when text is empty, so callers can
// print the result unconditionally.
func ContextOutput(event, additionalContext string) []byte {
	if additionalContext == "" {
		return nil
	}
	var o contextOutput
	o.HookSpecificOutput.HookEventName = event
	o.HookSpecificOutput.AdditionalContext = additionalContext
	return marshal(o)
}

// BashOutput returns the PostToolUse protocol JSON that replaces a Bash
// result: {"hookSpecificOutput":{"hookEventName":"PostToolUse",
// "updatedToolOutput":{"stdout":…,"stderr":…,"interrupted":…,"isImage":false}}}
// followed by a newline.
func BashOutput(stdout, stderr string, interrupted bool) []byte {
	var o bashOutput
	o.HookSpecificOutput.HookEventName = "PostToolUse"
	o.HookSpecificOutput.UpdatedToolOutput = bashToolOutput{Stdout: stdout, Stderr: stderr, Interrupted: interrupted}
	return marshal(o)
}

// marshal encodes v without HTML escaping (the text goes to a model, not a
// browser). Strings holding invalid UTF-8 are encoded with U+FFFD, as
// encoding/json does.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only unsupported types fail; these structs hold strings and bools.
		panic("hookio: marshal: " + err.Error())
	}
	return b.Bytes()
}
