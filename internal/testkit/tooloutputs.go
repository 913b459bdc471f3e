package testkit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// ToolOutput is one captured Bash run of ../shared/tool-outputs: its
// PostToolUse payload, the fields of it the hook reads, its meta.json and,
// where the case has one, its PostToolUseFailure payload.
type ToolOutput struct {
	Name    string // the case's folder name
	Payload []byte // posttooluse.json as stored
	Meta    ToolOutputMeta

	ToolUseID   string
	Command     string
	Description string
	Stdout      string
	Stderr      string
	Interrupted bool
	IsImage     bool

	Failure []byte // posttoolusefailure.json; nil when the case has none
}

// ToolOutputMeta is a case's meta.json: the substrings an extract must
// keep, and the case it forms a determinism pair with.
type ToolOutputMeta struct {
	Name     string   `json:"name"`
	Command  string   `json:"command"`
	PairOf   *string  `json:"pair_of"`
	MustKeep []string `json:"must_keep"`
	// ExitStatus is the command's exit status (Claude Code fires
	// PostToolUse only for 0).
	ExitStatus int `json:"exit_status"`
}

// ToolOutputs reads every case under ../shared/tool-outputs, in name order.
// It fails the test when there is none or one does not parse.
func ToolOutputs(tb testing.TB) []ToolOutput {
	tb.Helper()
	dir := Shared(tb, "tool-outputs")
	metas, err := filepath.Glob(filepath.Join(dir, "*", "meta.json"))
	if err != nil || len(metas) == 0 {
		tb.Fatalf("testkit: no tool-output cases under %s", dir)
	}
	out := make([]ToolOutput, 0, len(metas))
	for _, m := range metas {
		d := filepath.Dir(m)
		c := ToolOutput{Name: filepath.Base(d)}
		raw, err := os.ReadFile(m)
		if err != nil {
			tb.Fatal(err)
		}
		if err := json.Unmarshal(raw, &c.Meta); err != nil {
			tb.Fatalf("testkit: %s: %v", m, err)
		}
		if c.Payload, err = os.ReadFile(filepath.Join(d, "posttooluse.json")); err != nil {
			tb.Fatal(err)
		}
		var p struct {
			ToolUseID string `json:"tool_use_id"`
			ToolInput struct {
				Command     string `json:"command"`
				Description string `json:"description"`
			} `json:"tool_input"`
			ToolResponse struct {
				Stdout      string `json:"stdout"`
				Stderr      string `json:"stderr"`
				Interrupted bool   `json:"interrupted"`
				IsImage     bool   `json:"isImage"`
			} `json:"tool_response"`
		}
		if err := json.Unmarshal(c.Payload, &p); err != nil {
			tb.Fatalf("testkit: %s: %v", c.Name, err)
		}
		c.ToolUseID, c.Command, c.Description = p.ToolUseID, p.ToolInput.Command, p.ToolInput.Description
		c.Stdout, c.Stderr = p.ToolResponse.Stdout, p.ToolResponse.Stderr
		c.Interrupted, c.IsImage = p.ToolResponse.Interrupted, p.ToolResponse.IsImage
		if f, err := os.ReadFile(filepath.Join(d, "posttoolusefailure.json")); err == nil {
			c.Failure = f
		}
		out = append(out, c)
	}
	return out
}
