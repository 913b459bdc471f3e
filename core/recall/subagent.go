package recall

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/vaultctx/vaultctx/core/hookio"
	"github.com/vaultctx/vaultctx/core/internal/fsx"
)

// MaxTranscriptTail is how much of the end of the parent's transcript
// SubagentTask reads: 1 MiB, far more than the turn that starts a
// subagent.
const MaxTranscriptTail = 1 << 20

// maxSubagentMetas bounds the subagent meta files SubagentTask reads.
const maxSubagentMetas = 500

// agentCall is one Agent or Task tool call of the parent's transcript.
type agentCall struct {
	id, agentType, task string
}

// SubagentTask returns the task of the subagent a SubagentStart payload
// announces, as Intent gives it for the Agent (or Task) call that started
// it: its description and prompt, one per line. Claude Code 2.1.332 sends
// SubagentStart only session_id, transcript_path, agent_id and agent_type,
// so the call is found in the parent's transcript (its last
// MaxTranscriptTail bytes), where the call is written before the subagent
// starts:
//
//   - the calls are those of the last assistant message that calls Agent
//     or Task (parallel calls of one turn share a message id);
//   - calls whose subagent already started are left out: the client writes
//     <transcript without .jsonl>/subagents/agent-<id>.meta.json, naming
//     the call's toolUseId, once a subagent's SubagentStart hooks are done;
//   - of the rest, those whose subagent_type (default "general-purpose")
//     is the payload's agent_type, if that leaves exactly one.
//
// When exactly one call remains its task is returned; otherwise "" (no
// transcript, no such call, or several calls started at once that the
// payload cannot tell apart: a subagent then gets no context rather than
// another's).
func SubagentTask(in hookio.Input) string {
	if in.TranscriptPath == "" || in.AgentID == "" {
		return ""
	}
	data, cut, err := fsx.ReadTail(in.TranscriptPath, MaxTranscriptTail)
	if err != nil {
		return ""
	}
	if cut {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	calls := lastAgentCalls(data)
	if len(calls) == 0 {
		return ""
	}
	started := startedCalls(strings.TrimSuffix(in.TranscriptPath, ".jsonl"))
	var open, typed []agentCall
	for _, c := range calls {
		if started[c.id] {
			continue
		}
		open = append(open, c)
		if c.agentType == in.AgentType {
			typed = append(typed, c)
		}
	}
	switch {
	case len(open) == 1:
		return open[0].task
	case len(typed) == 1:
		return typed[0].task
	}
	return ""
}

// lastAgentCalls returns the Agent and Task calls of the last assistant
// message of a transcript (JSONL) that makes any, in order.
func lastAgentCalls(data []byte) []agentCall {
	var calls []agentCall
	lastMsg := ""
	for len(data) > 0 {
		ln := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			ln, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		// Cheap filter before parsing: only assistant lines that call a tool.
		if !bytes.Contains(ln, []byte(`"tool_use"`)) || !bytes.Contains(ln, []byte(`"assistant"`)) || !gjson.ValidBytes(ln) {
			continue
		}
		r := gjson.ParseBytes(ln)
		if r.Get("type").String() != "assistant" {
			continue
		}
		msg := r.Get("message.id").String()
		var found []agentCall
		for _, b := range r.Get("message.content").Array() {
			name := b.Get("name").String()
			if b.Get("type").String() != "tool_use" || (name != "Agent" && name != "Task") {
				continue
			}
			in := hookio.Input{ToolName: name, ToolInput: b.Get("input")}
			typ := b.Get("input.subagent_type").String()
			if typ == "" {
				typ = "general-purpose"
			}
			found = append(found, agentCall{id: b.Get("id").String(), agentType: typ, task: Intent(in)})
		}
		if len(found) == 0 {
			continue
		}
		if msg == "" || msg != lastMsg {
			calls = nil
		}
		lastMsg = msg
		calls = append(calls, found...)
	}
	return calls
}

// startedCalls returns the tool use ids named by the subagent meta files
// (<sessionDir>/subagents/agent-*.meta.json, field toolUseId) of a
// session: the Agent calls whose subagents have started.
func startedCalls(sessionDir string) map[string]bool {
	metas, _ := filepath.Glob(filepath.Join(sessionDir, "subagents", "agent-*.meta.json"))
	if len(metas) > maxSubagentMetas {
		metas = metas[len(metas)-maxSubagentMetas:]
	}
	out := map[string]bool{}
	for _, m := range metas {
		b, cut, err := fsx.ReadTail(m, 64<<10)
		if err != nil || cut {
			continue
		}
		if id := gjson.GetBytes(b, "toolUseId").String(); id != "" {
			out[id] = true
		}
	}
	return out
}
