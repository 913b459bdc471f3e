package hookio

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestContextOutput(t *testing.T) {
	text := "## Relevant Memory Context\n\n### A <b> & \"c\"\nx.md\nbody\n"
	got := ContextOutput("PreToolUse", text)
	var v struct {
		HookSpecificOutput map[string]any `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"hookEventName": "PreToolUse", "additionalContext": text}
	if !reflect.DeepEqual(v.HookSpecificOutput, want) {
		t.Fatalf("got %v, want %v", v.HookSpecificOutput, want)
	}
	if ContextOutput("PreToolUse", "") != nil {
		t.Fatal("empty context must give nil output")
	}
}

func TestBashOutputShape(t *testing.T) {
	got := BashOutput("out <x>", "err", true)
	const want = `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"out <x>","stderr":"err","interrupted":true,"isImage":false}}}` + "\n"
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	// Exactly Bash's tool_response keys, nothing else.
	var v struct {
		HookSpecificOutput struct {
			UpdatedToolOutput map[string]any `json:"updatedToolOutput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.HookSpecificOutput.UpdatedToolOutput) != 4 {
		t.Fatalf("updatedToolOutput has %d keys, want 4", len(v.HookSpecificOutput.UpdatedToolOutput))
	}
}
