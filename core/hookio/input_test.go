package hookio

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

var payloadDir = testkit.SharedDir("hook-payloads")

// wantFields decodes the payload independently with encoding/json.
func wantFields(t testing.TB, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("decode with encoding/json: %v", err)
	}
	return m
}

func strField(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func TestReadInputRealPayloads(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(payloadDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no payloads in %s: %v", payloadDir, err)
	}
	tools, _ := filepath.Glob(testkit.SharedDir("tool-outputs/*/posttoolusefailure.json"))
	files = append(files, tools...)
	// Payloads captured from Claude Code 2.1.332 (internal/claudetest):
	// SessionStart, PreCompact, SubagentStart, a <task-notification>
	// prompt, tool calls inside a subagent.
	captured, _ := filepath.Glob(filepath.Join("testdata", "claude-code-2.1.332", "*.json"))
	if len(captured) == 0 {
		t.Fatal("no captured payloads in testdata/claude-code-2.1.332")
	}
	files = append(files, captured...)
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			in, err := ReadInput(bytes.NewReader(data), 0)
			if err != nil {
				t.Fatalf("ReadInput: %v", err)
			}
			m := wantFields(t, data)
			for _, c := range []struct{ got, key string }{
				{in.SessionID, "session_id"}, {in.TranscriptPath, "transcript_path"}, {in.Cwd, "cwd"},
				{in.Event, "hook_event_name"}, {in.Prompt, "prompt"}, {in.ToolName, "tool_name"},
				{in.ToolUseID, "tool_use_id"}, {in.Source, "source"}, {in.AgentID, "agent_id"},
				{in.AgentType, "agent_type"},
			} {
				if c.got != strField(m, c.key) {
					t.Errorf("%s = %q, want %q", c.key, c.got, strField(m, c.key))
				}
			}
			if _, ok := m["tool_input"]; ok != in.ToolInput.Exists() {
				t.Errorf("tool_input exists = %v, want %v", in.ToolInput.Exists(), ok)
			}
			if resp, ok := m["tool_response"].(map[string]any); ok {
				if got := in.ToolResponse.Get("stdout").String(); got != strField(resp, "stdout") && resp["stdout"] != nil {
					t.Errorf("tool_response.stdout differs")
				}
			}
		})
	}
}

func TestReadInputErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		max  int64
		want error
	}{
		{"empty", "", 0, ErrEmptyInput},
		{"whitespace", " \n\t ", 0, ErrEmptyInput},
		{"garbage", "not json at all", 0, ErrMalformedInput},
		{"array", `[{"session_id":"x"}]`, 0, ErrMalformedInput},
		{"truncated", `{"session_id":"x","prompt":"hel`, 0, ErrMalformedInput},
		{"two objects", `{"a":1}{"b":2}`, 0, ErrMalformedInput},
		{"too large", `{"prompt":"` + strings.Repeat("x", 100) + `"}`, 50, ErrInputTooLarge},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadInput(strings.NewReader(c.in), c.max)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
}

func TestReadInputOddTypes(t *testing.T) {
	// Nulls and unknown fields of any type are fine.
	in, err := ReadInput(strings.NewReader(`{"session_id":null,"tool_name":null,"cwd":"/p","extra":[1,2],"tool_input":null}`), 0)
	if err != nil {
		t.Fatal(err)
	}
	if in.SessionID != "" || in.ToolName != "" || in.Cwd != "/p" {
		t.Fatalf("null fields must read as empty: %+v", in)
	}
	// A contract string field of another type is malformed input, and the
	// error names it.
	for _, bad := range []string{`{"session_id":42}`, `{"prompt":{"x":1}}`, `{"tool_name":["Bash"]}`, `{"cwd":true,"prompt":"p"}`} {
		_, err := ReadInput(strings.NewReader(bad), 0)
		if !errors.Is(err, ErrMalformedInput) || !strings.Contains(err.Error(), "want a string") {
			t.Errorf("ReadInput(%s) = %v, want ErrMalformedInput naming the field", bad, err)
		}
	}
}

// FuzzReadInput checks ReadInput never panics and agrees with encoding/json
// on the string fields of every object it accepts.
func FuzzReadInput(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(payloadDir, "*.json"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"session_id":"\u0000\ud800","prompt":"a\"b"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ReadInput(bytes.NewReader(data), 1<<16)
		if err != nil {
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(data, &m) != nil {
			// gjson accepts a few inputs encoding/json rejects (e.g. invalid
			// UTF-8 inside strings); nothing more to compare.
			return
		}
		if bytes.Count(data, []byte(`"session_id"`)) > 1 {
			return // duplicate keys: gjson keeps the first, encoding/json the last
		}
		var want string
		if raw, ok := m["session_id"]; ok && json.Unmarshal(raw, &want) == nil && !bytes.ContainsRune(raw, '\\') {
			if in.SessionID != want {
				t.Fatalf("session_id = %q, encoding/json says %q", in.SessionID, want)
			}
		}
	})
}

func TestFields(t *testing.T) {
	in, err := ReadInput(strings.NewReader(`{"tool_response":{"stdout":"a","isImage":true,"stderr":"b","stdout":"dup"},"tool_name":"Bash"}`), 0)
	if err != nil {
		t.Fatal(err)
	}
	f := Fields(in.ToolResponse, "stdout", "stderr", "interrupted", "isImage")
	if f[0].String() != "a" || f[1].String() != "b" || f[2].Exists() || !f[3].Bool() {
		t.Fatalf("Fields = %v", f)
	}
	for i, k := range []string{"stdout", "stderr", "interrupted", "isImage"} {
		if f[i].Raw != in.ToolResponse.Get(k).Raw {
			t.Errorf("Fields(%s) = %s, Get gives %s", k, f[i].Raw, in.ToolResponse.Get(k).Raw)
		}
	}
}
