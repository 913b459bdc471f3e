package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/embed"
)

var sharedModels = testkit.SharedDir("models")

// runCaptured runs the CLI with args and returns its exit code and stdout.
func runCaptured(t *testing.T, args ...string) (int, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	done := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		done <- b
	}()
	code := run(args)
	w.Close()
	os.Stdout = old
	return code, string(<-done)
}

func TestModelInfo(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	tests := []struct {
		name, dir   string
		dims, vocab int
		dtype       string
		quantized   bool
	}{
		{"glove F16", "glove-120k", 100, 120002, "F16", false},
		{"vocab-quantized", "m2v-fixtures/vocab-quantized", 64, 29524, "F32", true},
		{"int8", "m2v-fixtures/int8", 2, 29528, "I8", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(sharedModels, tc.dir)
			code, out := runCaptured(t, "model", "info", "--json", dir)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			var got modelInfo
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v in %q", err, out)
			}
			m, err := embed.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			hash, err := m.Hash()
			if err != nil {
				t.Fatal(err)
			}
			if got.Dims != tc.dims || got.VocabSize != tc.vocab || got.DType != tc.dtype || got.Quantized != tc.quantized || !got.Normalize || got.Hash != hash {
				t.Errorf("info %+v; want dims %d vocab %d dtype %s quantized %v hash %s", got, tc.dims, tc.vocab, tc.dtype, tc.quantized, hash)
			}
			code, text := runCaptured(t, "model", "info", dir)
			if code != 0 || !strings.Contains(text, hash) || !strings.Contains(text, "dims") {
				t.Errorf("text output (exit %d):\n%s", code, text)
			}
		})
	}
}

func TestModelInfoMissing(t *testing.T) {
	if code, _ := runCaptured(t, "model", "info", t.TempDir()); code != 2 {
		t.Errorf("exit %d for an empty directory, want 2 (usage: pull a model)", code)
	}
}

func TestModelPull(t *testing.T) {
	src := filepath.Join(sharedModels, "m2v-fixtures/float32")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/acme/tiny/resolve/r1/")
		data, err := os.ReadFile(filepath.Join(src, filepath.Base(name)))
		if err != nil || name == r.URL.Path {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, "", fixedTime, bytes.NewReader(data))
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "tiny")
	code, out := runCaptured(t, "model", "pull", "--name", "acme/tiny", "--revision", "r1", "--dir", dir, "--base-url", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.TrimSpace(out) != dir {
		t.Errorf("stdout %q, want the install dir %q", out, dir)
	}
	m, err := embed.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.Name() != "acme/tiny" {
		t.Errorf("Name() = %q", m.Name())
	}
	if code, _ := runCaptured(t, "model", "pull", "--name", "acme/missing", "--dir", filepath.Join(t.TempDir(), "x"), "--base-url", srv.URL); code != 1 {
		t.Errorf("pull of a missing model: exit %d, want 1", code)
	}
}
