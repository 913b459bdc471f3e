package posttool

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/tidwall/gjson"

	"github.com/vaultctx/vaultctx/core/compress"
	"github.com/vaultctx/vaultctx/core/hookio"
)

func readPayload(t *testing.T, data []byte) hookio.Input {
	t.Helper()
	in, err := hookio.ReadInput(bytes.NewReader(data), 0)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func TestHookOnRealPayloads(t *testing.T) {
	dir := t.TempDir()
	opts := Options{OutputDir: dir}
	for _, c := range loadCases(t) {
		if c.Payload == nil {
			continue // captured cases have no payload
		}
		t.Run(c.Name, func(t *testing.T) {
			in := readPayload(t, c.Payload)
			out, err := Hook(context.Background(), in, opts)
			if err != nil {
				t.Fatal(err)
			}
			size := len(c.Req.Stdout) + len(c.Req.Stderr)
			saved := filepath.Join(dir, c.ToolUse+".txt")
			if size < compress.DefaultThresholdBytes {
				if out != nil {
					t.Fatalf("small output (%d bytes) not passed through", size)
				}
				return
			}
			c.Req.Prompt = LatestPrompt(in.TranscriptPath)
			if !compress.WorthReplacing(c.Req, compress.Condense(context.Background(), c.Req, opts.Options, saved)) {
				if out != nil {
					t.Fatalf("extract saves under %d%% of %d bytes but replaced the output", compress.MinSavingPercent, size)
				}
				if _, err := os.Stat(saved); !os.IsNotExist(err) {
					t.Fatalf("output passed through but saved: %v", err)
				}
				return
			}
			if !gjson.ValidBytes(out) {
				t.Fatalf("invalid JSON: %s", out)
			}
			u := gjson.GetBytes(out, "hookSpecificOutput.updatedToolOutput")
			if len(u.Map()) != 4 || u.Get("isImage").Bool() || u.Get("interrupted").Bool() != c.Req.Interrupted {
				t.Fatalf("updatedToolOutput has the wrong shape: %s", u.Raw)
			}
			header := strings.SplitN(u.Get("stdout").String(), "\n", 2)[0]
			if !strings.Contains(header, saved) || !strings.Contains(header, "condensed") {
				t.Fatalf("header %q does not name %s", header, saved)
			}
			data, err := os.ReadFile(saved)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(data), c.Req.Stdout) {
				t.Fatal("saved output is not the original stdout")
			}
			again, _ := Hook(context.Background(), in, opts)
			if !bytes.Equal(out, again) {
				t.Fatal("second run differs")
			}
		})
		if c.HasFail {
			t.Run(c.Name+"/failure", func(t *testing.T) {
				out, err := Hook(context.Background(), readPayload(t, c.FailData), opts)
				if out != nil || err != nil {
					t.Fatalf("PostToolUseFailure must pass through: %q %v", out, err)
				}
			})
		}
	}
}

func TestHookPassThrough(t *testing.T) {
	big := strings.Repeat("line of output\n", 1000)
	opts := Options{OutputDir: t.TempDir()}
	write, _ := os.ReadFile(testkit.SharedDir("hook-payloads/posttooluse-write.json"))
	for _, c := range []struct{ name, payload string }{
		{"other tool", string(write)},
		{"image", `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"stdout":"` + strings.ReplaceAll(big, "\n", `\n`) + `","stderr":"","interrupted":false,"isImage":true}}`},
		{"interrupted empty", `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"stdout":"` + strings.Repeat(" ", 5000) + `","stderr":"","interrupted":true,"isImage":false}}`},
		{"no response", `{"hook_event_name":"PostToolUse","tool_name":"Bash"}`},
		{"string response", `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":"` + strings.Repeat("x", 5000) + `"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := Hook(context.Background(), readPayload(t, []byte(c.payload)), opts)
			if out != nil || err != nil {
				t.Fatalf("want pass-through, got %q %v", out, err)
			}
		})
	}
	// An interrupted result with output is condensed and keeps the flag.
	in := readPayload(t, []byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"t1","tool_response":{"stdout":"`+strings.ReplaceAll(big, "\n", `\n`)+`","stderr":"","interrupted":true,"isImage":false}}`))
	out, err := Hook(context.Background(), in, opts)
	if err != nil || !gjson.GetBytes(out, "hookSpecificOutput.updatedToolOutput.interrupted").Bool() {
		t.Fatalf("interrupted flag lost: %s %v", out, err)
	}
}

func TestOptionsFromEnv(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", EnvThreshold: "100", EnvBudget: "50"}
	o, err := OptionsFromEnv(func(k string) string { return env[k] })
	if err != nil || o.OutputDir != "/home/u/.cache/vaultctx/outputs" || o.ThresholdBytes != 100 || o.BudgetTokens != 50 {
		t.Fatalf("got %+v, %v", o, err)
	}
	env[EnvBudget] = "-3"
	if _, err := OptionsFromEnv(func(k string) string { return env[k] }); err == nil {
		t.Fatal("negative budget accepted")
	}
}

// TestOutputStaysUnderPreviewCut: whatever budget is configured, the
// extract Claude Code receives (updatedToolOutput's stdout and stderr)
// stays under the 30,000 bytes past which it would show its own preview
// instead (internal/claudetest TestUpdatedToolOutputCap).
func TestOutputStaysUnderPreviewCut(t *testing.T) {
	opts := Options{OutputDir: t.TempDir(), Options: compress.Options{BudgetTokens: 100000, ContentBudgetTokens: 100000}}
	for _, c := range loadCases(t) {
		if c.Payload == nil {
			continue
		}
		out, err := Hook(context.Background(), readPayload(t, c.Payload), opts)
		if err != nil || out == nil {
			continue
		}
		o := gjson.GetBytes(out, "hookSpecificOutput.updatedToolOutput")
		if n := len(o.Get("stdout").String()) + len(o.Get("stderr").String()); n >= 30000 {
			t.Errorf("%s: extract is %d bytes", c.Name, n)
		}
	}
}

// TestHookMinSaving: real ls -la listings just over the threshold condense
// by less than compress.MinSavingPercent and pass through whole, with nothing saved;
// a longer one is still condensed, and its extract saves at least that much.
func TestHookMinSaving(t *testing.T) {
	for _, c := range []struct {
		file     string
		replaced bool
	}{
		{"ls_la_usr_bin_head70.txt", false},
		{"ls_la_usr_bin_head100.txt", false},
		{"ls_la_usr_bin_head150.txt", true},
	} {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "passthrough", c.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(data) < compress.DefaultThresholdBytes {
				t.Fatalf("fixture of %d bytes is under the threshold", len(data))
			}
			n := strings.TrimSuffix(strings.TrimPrefix(c.file, "ls_la_usr_bin_head"), ".txt")
			dir := t.TempDir()
			p, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_ls",
				"tool_input":    map[string]any{"command": "ls -la /usr/bin | head -" + n},
				"tool_response": map[string]any{"stdout": string(data), "stderr": "", "interrupted": false, "isImage": false}})
			out, err := Hook(context.Background(), readPayload(t, p), Options{OutputDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			files, _ := os.ReadDir(dir)
			if !c.replaced {
				if out != nil || len(files) != 0 {
					t.Fatalf("want pass-through and nothing saved, got %d bytes out, %d files", len(out), len(files))
				}
				return
			}
			u := gjson.GetBytes(out, "hookSpecificOutput.updatedToolOutput")
			got := len(u.Get("stdout").String()) + len(u.Get("stderr").String())
			if out == nil || len(files) != 1 || got*100 > len(data)*(100-compress.MinSavingPercent) {
				t.Fatalf("want an extract at least %d%% smaller than %d bytes and the output saved: %d bytes, %d files", compress.MinSavingPercent, len(data), got, len(files))
			}
		})
	}
}
