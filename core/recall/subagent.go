package recall

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

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

// SubagentWait is how long SubagentTask waits for the Agent call to show
// up in the parent's transcript: Claude Code 2.1.332 may fire
// SubagentStart before it has written the call there (seen up to 31 ms
// late); the file is read again every subagentPoll until then.
const SubagentWait = 250 * time.Millisecond

const subagentPoll = 10 * time.Millisecond

// MaxCallAge is how much older than the transcript's newest line an Agent
// call may be and still be the one a SubagentStart is about: a subagent
// starts within milliseconds of its call.
const MaxCallAge = 2 * time.Minute

// agentCall is one Agent or Task tool call of the parent's transcript.
type agentCall struct {
	id, agentType, task string
}

// SubagentTask returns the task of the subagent a SubagentStart payload
// announces, as Intent gives it for the Agent (or Task) call that started
// it: its description and prompt, one per line. Claude Code 2.1.332 sends
// SubagentStart only session_id, transcript_path, agent_id and agent_type,
// so the call is looked up in the parent's transcript (its last
// MaxTranscriptTail bytes; a line that is not valid JSON or nests deeper
// than hookio.MaxDepth is skipped):
//
//   - the candidates are the Agent and Task calls of the last assistant
//     message that makes any (parallel calls of one turn share a message
//     id), at most MaxCallAge older than the transcript's newest line;
//   - calls that failed (an is_error tool_result: refused, invalid) are
//     left out, and so are calls whose subagent already started: the
//     client writes <transcript without .jsonl>/subagents/agent-<id>.meta.json,
//     naming the call's toolUseId, once that subagent's SubagentStart hooks
//     are done;
//   - of the rest, if several, those whose subagent_type (default
//     "general-purpose") is the payload's agent_type.
//
// When exactly one call remains its task is returned. When none does, the
// call may not be written yet: the transcript is read again until
// SubagentWait has passed or ctx is done. When several remain (calls made
// at once that the payload cannot tell apart) it returns "" at once: a
// subagent then gets no context rather than another's. So it does for a
// transcript that cannot be read (not a regular file); a missing one is
// waited for like a missing call (the client may create the file late).
func SubagentTask(ctx context.Context, in hookio.Input) string {
	if in.TranscriptPath == "" || in.AgentID == "" {
		return ""
	}
	wait := time.NewTimer(SubagentWait)
	defer wait.Stop()
	for {
		task, final := subagentTask(in)
		if final {
			return task
		}
		select {
		case <-ctx.Done():
			return ""
		case <-wait.C:
			return ""
		case <-time.After(subagentPoll):
		}
	}
}

// subagentTask is one look at the transcript for SubagentTask: the task,
// and whether that is the answer (the task found, several candidates, or
// a transcript that cannot be read) or the call may still be written.
func subagentTask(in hookio.Input) (task string, final bool) {
	data, cut, err := fsx.ReadTail(in.TranscriptPath, MaxTranscriptTail)
	if err != nil {
		// The client may not have created the file yet: wait for it.
		return "", !errors.Is(err, fs.ErrNotExist)
	}
	if cut {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	calls := lastAgentCalls(data)
	if len(calls) == 0 {
		return "", false
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
		return open[0].task, true
	case len(typed) == 1:
		return typed[0].task, true
	}
	return "", len(open) > 1
}

// lastAgentCalls returns the Agent and Task calls of the last assistant
// message of a transcript (JSONL) that makes any, in order, without those
// that got an is_error tool_result and without all of them when the
// message is more than MaxCallAge older than the transcript's newest line.
func lastAgentCalls(data []byte) []agentCall {
	var calls []agentCall
	var callsAt, newest time.Time
	failed := map[string]bool{}
	lastMsg := ""
	for len(data) > 0 {
		ln := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			ln, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		at := lineTime(ln)
		if !at.IsZero() {
			newest = at
		}
		// Cheap filters before parsing: assistant lines that call a tool,
		// user lines with a failed tool result.
		switch {
		case bytes.Contains(ln, []byte(`"tool_result"`)) && bytes.Contains(ln, []byte(`"is_error":true`)):
			if !hookio.Valid(ln) {
				continue
			}
			for _, b := range gjson.GetBytes(ln, "message.content").Array() {
				if b.Get("type").String() == "tool_result" && b.Get("is_error").Bool() {
					failed[b.Get("tool_use_id").String()] = true
				}
			}
			continue
		case !bytes.Contains(ln, []byte(`"tool_use"`)) || !bytes.Contains(ln, []byte(`"assistant"`)) || !hookio.Valid(ln):
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
			calls, callsAt = nil, at
		}
		lastMsg = msg
		calls = append(calls, found...)
	}
	if !callsAt.IsZero() && newest.Sub(callsAt) > MaxCallAge {
		return nil
	}
	out := calls[:0]
	for _, c := range calls {
		if !failed[c.id] {
			out = append(out, c)
		}
	}
	return out
}

// lineTime returns the "timestamp" of a transcript line (RFC 3339), or
// the zero time.
func lineTime(ln []byte) time.Time {
	const key = `"timestamp":"`
	i := bytes.Index(ln, []byte(key))
	if i < 0 {
		return time.Time{}
	}
	rest := ln[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, string(rest[:j]))
	if err != nil {
		return time.Time{}
	}
	return t
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
		if err != nil || cut || !hookio.Valid(b) {
			continue
		}
		if id := gjson.GetBytes(b, "toolUseId").String(); id != "" {
			out[id] = true
		}
	}
	return out
}
