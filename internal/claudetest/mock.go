package claudetest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"
)

// Turn is one scripted model reply: an optional text block, then tool calls.
// A Turn with tool calls ends with stop_reason "tool_use", so the CLI runs
// them and sends their results in its next request; one without ends the
// conversation ("end_turn").
type Turn struct {
	Text  string
	Tools []ToolCall
}

// ToolCall is one tool_use block of a Turn.
type ToolCall struct {
	ID    string // the tool_use id; "" gives toolu_mock_<n>, n counting from 1 per Mock
	Name  string // tool name as the CLI lists it, e.g. "Bash"
	Input any    // the tool input, marshalled to JSON
}

// Say is a Turn that answers text and ends the conversation.
func Say(text string) Turn { return Turn{Text: text} }

// Bash is a Turn that calls the Bash tool with command (and a description,
// which Bash's input schema carries).
func Bash(id, command string) Turn {
	return Use(id, "Bash", map[string]string{"command": command, "description": "Run the scripted command"})
}

// Use is a Turn that calls tool name with input.
func Use(id, name string, input any) Turn {
	return Turn{Tools: []ToolCall{{ID: id, Name: name, Input: input}}}
}

// EndOfScript is the text a Mock answers once its script is used up.
const EndOfScript = "(claudetest: end of script)"

// Mock is a scripted Anthropic Messages API on 127.0.0.1. Each POST
// /v1/messages (the CLI adds ?beta=true) takes the next Turn of the script,
// whatever it asked, and gets it back as a stream of server-sent events
// when the request has "stream": true (as the CLI's are) or as one JSON
// message otherwise; past the end of the script it answers EndOfScript.
// POST /v1/messages/count_tokens answers a rough count (a quarter of the
// body's bytes). Any other path gets 404. Every request is recorded.
type Mock struct {
	URL string // http://127.0.0.1:PORT, for ANTHROPIC_BASE_URL

	mu     sync.Mutex
	script []Turn
	next   int
	ids    int
	reqs   []Request
}

// Request is one recorded HTTP request.
type Request struct {
	Method string
	Path   string // without the query
	Query  string
	Header http.Header
	Body   []byte
}

// NewMock starts a Mock playing script and stops it when the test ends.
func NewMock(tb testing.TB, script ...Turn) *Mock {
	tb.Helper()
	m := &Mock{script: script}
	srv := httptest.NewServer(http.HandlerFunc(m.serve)) // listens on 127.0.0.1:0
	tb.Cleanup(srv.Close)
	m.URL = srv.URL
	return m
}

// Requests returns every request received so far, in order.
func (m *Mock) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.reqs...)
}

// Messages returns the POST /v1/messages requests received so far, in order.
func (m *Mock) Messages() []Request {
	var out []Request
	for _, r := range m.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v1/messages" {
			out = append(out, r)
		}
	}
	return out
}

// Unexpected returns the requests to any path other than /v1/messages and
// /v1/messages/count_tokens.
func (m *Mock) Unexpected() []Request {
	var out []Request
	for _, r := range m.Requests() {
		if r.Path != "/v1/messages" && r.Path != "/v1/messages/count_tokens" {
			out = append(out, r)
		}
	}
	return out
}

// ToolResult returns the content of the tool_result block for tool use id
// in the latest /v1/messages request that holds one: what the model
// received as the tool's output, after the hooks. A content given as a
// list of blocks is returned as its text blocks joined by newlines.
func (m *Mock) ToolResult(id string) (content string, ok bool) {
	msgs := m.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if c, ok := msgs[i].ToolResult(id); ok {
			return c, true
		}
	}
	return "", false
}

// JSON returns the parsed request body.
func (r Request) JSON() gjson.Result { return gjson.ParseBytes(r.Body) }

// ToolResult returns the content of the tool_result block for tool use id
// in this request's messages (see Mock.ToolResult).
func (r Request) ToolResult(id string) (content string, ok bool) {
	for _, msg := range r.JSON().Get("messages").Array() {
		for _, b := range msg.Get("content").Array() {
			if b.Get("type").String() == "tool_result" && b.Get("tool_use_id").String() == id {
				return blockText(b.Get("content")), true
			}
		}
	}
	return "", false
}

// Text returns the text of this request's messages of one role ("user",
// "assistant", or "system": Claude Code 2.1.332 sends hook context such as
// UserPromptSubmit's additionalContext as a system-role message inside
// messages, not in the top-level system prompt): each message's string
// content and text blocks, joined by newlines. Tool results are left out.
func (r Request) Text(role string) string {
	var parts []string
	for _, msg := range r.JSON().Get("messages").Array() {
		if msg.Get("role").String() == role {
			parts = append(parts, blockText(msg.Get("content")))
		}
	}
	return strings.Join(parts, "\n")
}

// HookContexts returns, in order, the additionalContext of each hook of
// event that this request carries: "UserPromptSubmit", "SubagentStart",
// or for a tool event the event and the tool, "PreToolUse:Grep". Claude
// Code 2.1.332 sends each as a system-role message starting "<event> hook
// additional context: " ("PreToolUse:Grep hook additional context: ") and
// keeps it in the
// conversation, so a resumed session's request holds the earlier turns'
// contexts too, the newest last. It joins adjacent system texts with a
// blank line, so a context returned here (the prefix cut off) may run on
// into text the client put after it in the same message, such as its list
// of deferred tools; it ends before the next hook's context.
func (r Request) HookContexts(event string) []string {
	prefix := event + " hook additional context: "
	var out []string
	for _, msg := range r.JSON().Get("messages").Array() {
		if msg.Get("role").String() != "system" {
			continue
		}
		text := blockText(msg.Get("content"))
		starts := hookContext.FindAllStringIndex(text, -1)
		for i, m := range starts {
			end := len(text)
			if i+1 < len(starts) {
				end = starts[i+1][0]
			}
			part := strings.TrimLeft(text[m[0]:end], "\n")
			if rest, ok := strings.CutPrefix(part, prefix); ok {
				out = append(out, strings.TrimRight(rest, "\n"))
			}
		}
	}
	return out
}

// Hits returns the hits a vaultctx context block (one of HookContexts)
// shows, as "### heading\npath" pairs: each heading line followed by an
// absolute path, as the block names every note. Text the client appended
// to the context has no such pairs.
func Hits(context string) []string {
	lines := strings.Split(context, "\n")
	var out []string
	for i := 0; i+1 < len(lines); i++ {
		if strings.HasPrefix(lines[i], "### ") && filepath.IsAbs(lines[i+1]) {
			out = append(out, lines[i]+"\n"+lines[i+1])
		}
	}
	return out
}

// Chunks returns the chunks a vaultctx context block shows, each as its
// "### heading", path and first line of text: unlike Hits it tells apart
// two chunks of one long section, which share a heading and a path.
func Chunks(context string) []string {
	lines := strings.Split(context, "\n")
	var out []string
	for i := 0; i+2 < len(lines); i++ {
		if strings.HasPrefix(lines[i], "### ") && filepath.IsAbs(lines[i+1]) {
			out = append(out, lines[i]+"\n"+lines[i+1]+"\n"+lines[i+2])
		}
	}
	return out
}

// hookContext matches the start of any hook's context in a system text:
// at its start or after a newline.
var hookContext = regexp.MustCompile(`(?:^|\n)[A-Z][A-Za-z]+(?::\S+)? hook additional context: `)

// blockText is a content value's text: the string itself, or its text
// blocks joined by newlines.
func blockText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.Str
	}
	var parts []string
	for _, b := range c.Array() {
		if b.Get("type").String() == "text" {
			parts = append(parts, b.Get("text").String())
		}
	}
	return strings.Join(parts, "\n")
}

func (m *Mock) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	m.mu.Lock()
	m.reqs = append(m.reqs, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body})
	m.mu.Unlock()
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		m.reply(w, gjson.ParseBytes(body), len(body))
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		writeJSON(w, http.StatusOK, map[string]int{"input_tokens": len(body) / 4})
	default:
		writeJSON(w, http.StatusNotFound, apiError("not_found_error", "claudetest mock: no "+r.Method+" "+r.URL.Path))
	}
}

// block is one content block of a reply.
type block struct {
	Type  string          `json:"type"`
	Text  *string         `json:"text,omitempty"`
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

// reply answers one /v1/messages request with the next Turn.
func (m *Mock) reply(w http.ResponseWriter, req gjson.Result, size int) {
	m.mu.Lock()
	turn := Say(EndOfScript)
	if m.next < len(m.script) {
		turn = m.script[m.next]
	}
	m.next++
	n := m.next
	var blocks []block
	if turn.Text != "" {
		t := turn.Text
		blocks = append(blocks, block{Type: "text", Text: &t})
	}
	for _, tc := range turn.Tools {
		id := tc.ID
		if id == "" {
			m.ids++
			id = fmt.Sprintf("toolu_mock_%d", m.ids)
		}
		in, err := json.Marshal(tc.Input)
		if err != nil {
			m.mu.Unlock()
			http.Error(w, "claudetest mock: tool input: "+err.Error(), http.StatusInternalServerError)
			return
		}
		blocks = append(blocks, block{Type: "tool_use", ID: id, Name: tc.Name, Input: in})
	}
	m.mu.Unlock()
	stop := "end_turn"
	if len(turn.Tools) > 0 {
		stop = "tool_use"
	}
	msg := map[string]any{
		"id": fmt.Sprintf("msg_mock_%d", n), "type": "message", "role": "assistant",
		"model": req.Get("model").String(), "content": blocks,
		"stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]int{"input_tokens": size / 4, "output_tokens": 10},
	}
	if !req.Get("stream").Bool() {
		writeJSON(w, http.StatusOK, msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"], start["stop_reason"] = []block{}, nil
	start["usage"] = map[string]int{"input_tokens": size / 4, "output_tokens": 1}
	event(w, "message_start", map[string]any{"type": "message_start", "message": start})
	for i, b := range blocks {
		switch b.Type {
		case "text":
			empty := ""
			event(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": block{Type: "text", Text: &empty}})
			event(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]string{"type": "text_delta", "text": *b.Text}})
		case "tool_use":
			event(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": block{Type: "tool_use", ID: b.ID, Name: b.Name, Input: json.RawMessage("{}")}})
			event(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]string{"type": "input_json_delta", "partial_json": string(b.Input)}})
		}
		event(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 10}})
	event(w, "message_stop", map[string]string{"type": "message_stop"})
}

// event writes one server-sent event and flushes it.
func event(w http.ResponseWriter, name string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		panic("claudetest: marshal event: " + err.Error()) // only maps of strings, ints and blocks
	}
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// writeJSON writes v as a JSON response with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// apiError is the Messages API's error body.
func apiError(kind, msg string) map[string]any {
	return map[string]any{"type": "error", "error": map[string]string{"type": kind, "message": msg}}
}
