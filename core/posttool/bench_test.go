package posttool

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/vaultctx/vaultctx/core/hookio"
)

// BenchmarkHook1MB runs what the hook process does after start-up: decode a
// 1 MB payload, save the full output, condense and encode.
func BenchmarkHook1MB(b *testing.B) {
	req := megabyteRequest(b)
	payload, err := json.Marshal(map[string]any{
		"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_bench",
		"tool_input":    map[string]any{"command": req.Command, "description": req.Description},
		"tool_response": map[string]any{"stdout": req.Stdout, "stderr": req.Stderr, "interrupted": false, "isImage": false},
	})
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{OutputDir: b.TempDir()}
	b.SetBytes(int64(len(payload)))
	for b.Loop() {
		in, err := hookio.ReadInput(bytes.NewReader(payload), 0)
		if err != nil {
			b.Fatal(err)
		}
		if out, err := Hook(context.Background(), in, opts); err != nil || out == nil {
			b.Fatal(err)
		}
	}
}
