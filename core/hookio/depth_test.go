package hookio

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

func TestDepth(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		want int
	}{
		{"scalar", `1`, 0},
		{"object", `{"a":1}`, 1},
		{"nested", `{"a":[1,{"b":[[]]}]}`, 5},
		{"brackets in strings", `{"a":"[[[{{{","b":["]]]"]}`, 2},
		{"escaped quote", `{"a":"\"[[[\\","b":[]}`, 2},
		{"unclosed string", `[["abc`, 2},
		{"unbalanced closers", `]]]}[`, 1},
		{"escaped backslash then quote", `["a\\\\",[[]]]`, 3},
		{"escapes before a far quote", `[` + strings.Repeat(`"x\\n`, 1) + strings.Repeat(`y\\n`, 500) + `",{}]`, 2},
		{"escape at the end", `[["\\`, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Depth([]byte(c.in), 100); got != c.want {
				t.Errorf("Depth(%s) = %d, want %d", c.in, got, c.want)
			}
		})
	}
	deep := []byte(strings.Repeat("[", 50) + strings.Repeat("]", 50))
	if got := Depth(deep, 10); got != 11 {
		t.Errorf("Depth over the limit = %d, want limit+1 = 11", got)
	}
}

// depthByByte is Depth written the plain way, one byte at a time: the
// reference FuzzDepth compares Depth with.
func depthByByte(data []byte, limit int) int {
	depth, deepest := 0, 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			if i >= len(data) {
				return deepest
			}
		case '[', '{':
			if depth++; depth > deepest {
				if deepest = depth; deepest > limit {
					return limit + 1
				}
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return deepest
}

func FuzzDepth(f *testing.F) {
	for _, s := range []string{`{"a":"\"[[[\\","b":[]}`, `[["abc`, `["a\\\\",[[]]]`, `[["\\`, `"\\"[`} {
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		limit = min(max(limit, 0), 64)
		if got, want := Depth(data, limit), depthByByte(data, limit); got != want {
			t.Errorf("Depth(%q, %d) = %d, byte by byte %d", data, limit, got, want)
		}
	})
}

// nested returns a payload of event whose tool_response nests depth levels
// deep, each level opened by the next byte of shape ('{' an object with
// key "k", anything else an array), around inner.
func nested(event string, depth int, shape, inner string) []byte {
	if shape == "" {
		shape = "["
	}
	var b bytes.Buffer
	b.WriteString(`{"hook_event_name":"` + event + `","tool_name":"Bash","session_id":"s","tool_response":`)
	for i := 0; i < depth; i++ {
		if shape[i%len(shape)] == '{' {
			b.WriteString(`{"k":`)
		} else {
			b.WriteByte('[')
		}
	}
	b.WriteString(inner)
	for i := depth - 1; i >= 0; i-- {
		if shape[i%len(shape)] == '{' {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// TestReadInputDeep is the fault campaign's crash (issue 17): a
// PostToolUse payload of 6 million '[' made gjson's recursive validator
// overflow the stack, a fatal error that killed the hook with exit 2.
func TestReadInputDeep(t *testing.T) {
	for _, depth := range []int{MaxDepth, 6_000_000} {
		_, err := ReadInput(bytes.NewReader(nested("PostToolUse", depth, "[", "")), MaxPostToolUseInput)
		if !errors.Is(err, ErrMalformedInput) || !strings.Contains(err.Error(), "deeper") {
			t.Errorf("depth %d: err = %v, want ErrMalformedInput saying it nests too deep", depth, err)
		}
	}
	// The payload object itself is the first level.
	in, err := ReadInput(bytes.NewReader(nested("PostToolUse", MaxDepth-1, "[{", `"x"`)), MaxPostToolUseInput)
	if err != nil {
		t.Fatalf("depth MaxDepth: %v", err)
	}
	if !in.ToolResponse.IsArray() {
		t.Errorf("tool_response = %.40s, want the nested array", in.ToolResponse.Raw)
	}
}

// maxNest is the deepest nest of shape that fits the stdin cap of event.
func maxNest(event, shape string) int {
	if shape == "" {
		shape = "[" // as nested reads it
	}
	per := 0
	for i := 0; i < len(shape); i++ {
		if shape[i] == '{' {
			per += len(`{"k":}`)
		} else {
			per += len(`[]`)
		}
	}
	room := int(MaxInput(event)) - len(nested(event, 0, shape, ""))
	return room / per * len(shape)
}

// FuzzRunNesting drives the fail-open runner with payloads nested up to
// the stdin cap of each hook, and a handler that reads the payload the ways
// the real handlers do (Fields, Get, Array, ForEach). Every run must exit
// 0 and print nothing but a valid answer; the seeds (run by every `go
// test`) hold nests at, just past and far past MaxDepth, up to the cap.
func FuzzRunNesting(f *testing.F) {
	for _, event := range []string{"UserPromptSubmit", "PreToolUse", "PostToolUse"} {
		for _, shape := range []string{"[", "{", "[{"} {
			for _, depth := range []int{0, 1, MaxDepth - 1, MaxDepth, 1 << 20, maxNest(event, shape)} {
				f.Add(event, uint32(depth), shape, `"s"`)
			}
		}
	}
	f.Add("PostToolUse", uint32(MaxDepth-1), "[", `"]]]]\"[[[["`)
	f.Add("PostToolUse", uint32(3), "{", `{"stdout":"`+strings.Repeat("[", 1000)+`"}`)
	f.Fuzz(func(t *testing.T, event string, depth uint32, shape, inner string) {
		switch event {
		case "UserPromptSubmit", "PreToolUse", "PostToolUse":
		default:
			event = "PostToolUse"
		}
		if len(shape) > 16 {
			shape = shape[:16]
		}
		d := min(int(depth), maxNest(event, shape)+1)
		if testing.Short() && d > 1<<20 {
			t.Skip("nests of megabytes take long under the race detector; the full run (go test without -short) has them")
		}
		payload := nested(event, d, shape, inner)
		deep := Depth(payload, MaxDepth) > MaxDepth
		called := false
		h := func(ctx context.Context, in Input) ([]byte, error) {
			called = true
			r := in.ToolResponse
			f := Fields(r, "stdout", "stderr", "k")
			_ = f[0].String() + f[1].String() + f[2].Raw[:min(len(f[2].Raw), 8)]
			_ = r.Get("k.k.k").Raw
			_ = r.Get("0.0").Raw
			for _, x := range r.Array() {
				_ = x.Get("k").Raw
			}
			r.ForEach(func(k, v gjson.Result) bool { return v.Exists() })
			return ContextOutput(event, "answered "+in.ToolName), nil
		}
		var out, errb bytes.Buffer
		code := RunEnv(context.Background(), Env{Stdin: bytes.NewReader(payload), Stdout: &out, Stderr: &errb},
			event, 30*time.Second, h)
		if code != 0 {
			t.Fatalf("exit status %d", code)
		}
		if strings.Count(errb.String(), "\n") > 1 {
			t.Errorf("stderr has more than one line: %.200q", errb.String())
		}
		if deep && (called || out.Len() > 0) {
			t.Errorf("a payload nested past MaxDepth reached the handler (stdout %.100q)", out.String())
		}
		if out.Len() > 0 && !gjson.ValidBytes(out.Bytes()) {
			t.Errorf("stdout is not JSON: %.200q", out.String())
		}
		if !deep && len(payload) <= int(MaxInput(event)) && gjson.Valid(string(payload)) && !called {
			t.Errorf("a valid payload nested %d deep did not reach the handler: %s", d, errb.String())
		}
	})
}
