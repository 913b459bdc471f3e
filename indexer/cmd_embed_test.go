package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/embed"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

var fixedTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestEmbedCommand(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := filepath.Join(sharedModels, "glove-120k")
	m, err := embed.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	texts := []string{"how to handle authentication failures", "login error recovery", ""}
	var want [][]float32
	for _, s := range texts {
		v, err := m.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, v)
	}
	tests := []struct {
		name string
		args []string
	}{
		{"json batch", append([]string{"embed", "--model", dir, "--json"}, texts...)},
		{"text batch", append([]string{"embed", "--model", dir}, texts...)},
		{"json single", []string{"embed", "--model", dir, "--json", texts[0]}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out := runCaptured(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			var got [][]float32
			if strings.Contains(tc.name, "json") {
				var o embedOutput
				if err := json.Unmarshal([]byte(out), &o); err != nil {
					t.Fatal(err)
				}
				if o.Dims != 100 || o.Model != "glove-120k" {
					t.Errorf("model %q dims %d", o.Model, o.Dims)
				}
				got = o.Embeddings
			} else {
				for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
					var v []float32
					for _, f := range strings.Fields(line) {
						x, err := strconv.ParseFloat(f, 32)
						if err != nil {
							t.Fatal(err)
						}
						v = append(v, float32(x))
					}
					got = append(got, v)
				}
			}
			for i := range got {
				if len(got[i]) != 100 {
					t.Fatalf("embedding %d has %d numbers", i, len(got[i]))
				}
				for k := range got[i] {
					if math.Abs(float64(got[i][k]-want[i][k])) > 0 {
						t.Fatalf("embedding %d[%d] = %v, want %v", i, k, got[i][k], want[i][k])
					}
				}
			}
			if len(got) == 0 {
				t.Fatal("no embeddings printed")
			}
		})
	}
}

func TestEmbedNoModel(t *testing.T) {
	if code, _ := runCaptured(t, "embed", "--model", t.TempDir(), "hello"); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
}

// Without --model, embed and model info use the model the config file
// names, as every other command does.
func TestModelFromConfig(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // no pulled default model
	t.Setenv("VAULTCTX_MODEL", "")
	// Absolute: a relative model path in a config resolves from the
	// config's folder (a temp dir here), not from this package.
	dir := testkit.Shared(t, "models/glove-120k")
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("model = "+strconv.Quote(dir)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VAULTCTX_CONFIG", cfg)
	code, out := runCaptured(t, "embed", "--json", "login error recovery")
	if code != 0 || !strings.Contains(out, `"model":"glove-120k"`) {
		t.Fatalf("embed without --model: exit %d, %.200s", code, out)
	}
	code, out = runCaptured(t, "model", "info", "--json")
	if code != 0 || !strings.Contains(out, `"name": "glove-120k"`) {
		t.Fatalf("model info without a dir: exit %d, %.200s", code, out)
	}
}

// A text without a word of the vocabulary embeds to the zero vector, and
// embed says so on stderr (search ignores such a vector); others do not.
func TestEmbedZeroVectorNote(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := filepath.Join(sharedModels, "glove-120k")
	code, out, stderr := runStderr(t, "embed", "--model", dir, "coffee grinder", "", "zzqqxxvv")
	if code != 0 || strings.Count(out, "\n") != 3 {
		t.Fatalf("exit %d, %d lines", code, strings.Count(out, "\n"))
	}
	if strings.Count(stderr, "zero vector") != 2 || !strings.Contains(stderr, "text 2 (\"\")") || !strings.Contains(stderr, "text 3 (\"zzqqxxvv\")") || strings.Contains(stderr, "text 1 ") {
		t.Errorf("stderr = %q, want a note for texts 2 and 3 only", stderr)
	}
}
