package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/config"
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

// fakeHub serves the model folder src the way huggingface.co resolve URLs
// do, for the repository name at revision rev.
func fakeHub(t *testing.T, src, name, rev string) *httptest.Server {
	t.Helper()
	prefix := "/" + name + "/resolve/" + rev + "/"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		file, ok := strings.CutPrefix(r.URL.Path, prefix)
		data, err := os.ReadFile(filepath.Join(src, filepath.Base(file)))
		if !ok || err != nil {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, "", fixedTime, bytes.NewReader(data))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// pullBin is vaultctx-pull built once for the tests (usePullHelper).
var pullBin struct {
	once sync.Once
	dir  string
	err  error
}

// usePullHelper builds vaultctx-pull (package pull) and puts it first on
// PATH, where `vaultctx model pull` finds it when it is not beside the
// executable (the test binary).
func usePullHelper(t *testing.T) {
	t.Helper()
	pullBin.once.Do(func() {
		pullBin.dir, pullBin.err = os.MkdirTemp("", "vaultctx-pull-")
		if pullBin.err == nil {
			out, err := exec.Command("go", "build", "-o", filepath.Join(pullBin.dir, pullHelper), "../pull").CombinedOutput()
			if err != nil {
				pullBin.err = fmt.Errorf("go build ../pull: %v\n%s", err, out)
			}
		}
	})
	if pullBin.err != nil {
		t.Fatal(pullBin.err)
	}
	t.Setenv("PATH", pullBin.dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func TestModelPull(t *testing.T) {
	isolateCLI(t)
	usePullHelper(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	t.Setenv("VAULTCTX_CONFIG", cfg)
	srv := fakeHub(t, filepath.Join(sharedModels, "m2v-fixtures/float32"), "acme/tiny", "r1")
	dir := filepath.Join(t.TempDir(), "tiny")
	code, out, errOut := runStderr(t, "model", "pull", "--name", "acme/tiny", "--revision", "r1", "--dir", dir, "--base-url", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
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
	// No config existed: one is written that names the model.
	if c, err := config.Load("", os.Getenv); err != nil || c.Model != dir {
		t.Errorf("config after pull: model %q, %v; want %s", c.Model, err, dir)
	}
	if !strings.Contains(errOut, "wrote "+cfg) {
		t.Errorf("stderr does not say the config was written: %q", errOut)
	}
	// A failure is said once, by the helper, in vaultctx's words.
	code, out, errOut = runStderr(t, "model", "pull", "--name", "acme/missing", "--dir", filepath.Join(t.TempDir(), "x"), "--base-url", srv.URL)
	if code != 1 || out != "" || strings.Count(errOut, "vaultctx: model pull: ") != 1 || strings.Contains(errOut, "exit status") {
		t.Errorf("pull of a missing model: exit %d (want 1), stdout %q, stderr %q (want one vaultctx: model pull: line)", code, out, errOut)
	}
	// A helper that dies without a word of ours (killed, or another exit
	// status) is reported, not passed over in silence.
	for _, script := range []string{"kill -9 $$", "exit 3"} {
		fake := t.TempDir()
		if err := os.WriteFile(filepath.Join(fake, pullHelper), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", fake+string(os.PathListSeparator)+os.Getenv("PATH"))
		code, _, errOut = runStderr(t, "model", "pull", "--name", "acme/tiny", "--revision", "r1", "--dir", filepath.Join(t.TempDir(), "z"), "--base-url", srv.URL)
		if code != 1 || !strings.Contains(errOut, "vaultctx-pull failed (") || !strings.Contains(errOut, "run `vaultctx model pull` again") {
			t.Errorf("helper that runs %q: exit %d, stderr %q", script, code, errOut)
		}
	}
	// Without the helper the pull says how to get it.
	t.Setenv("PATH", t.TempDir())
	code, _, errOut = runStderr(t, "model", "pull", "--name", "acme/tiny", "--revision", "r1", "--dir", filepath.Join(t.TempDir(), "y"), "--base-url", srv.URL)
	if code != 1 || !strings.Contains(errOut, "vaultctx-pull, which downloads models, is neither beside this vaultctx nor on PATH") {
		t.Errorf("pull without vaultctx-pull: exit %d, stderr %q", code, errOut)
	}
}

// TestModelPullKeepsAnotherModel: a config that names another model is
// not changed, stderr says how to use the pulled one; --no-config writes
// nothing; a config that does not parse fails the pull (exit 1) after
// the download, so `model pull && index` stops there.
func TestModelPullKeepsAnotherModel(t *testing.T) {
	isolateCLI(t)
	usePullHelper(t)
	srv := fakeHub(t, filepath.Join(sharedModels, "m2v-fixtures/float32"), "acme/tiny", "r1")
	dir := filepath.Join(t.TempDir(), "tiny")
	pull := []string{"model", "pull", "--name", "acme/tiny", "--revision", "r1", "--dir", dir, "--base-url", srv.URL}
	for _, tc := range []struct {
		name, src string
		flags     []string
		code      int
		stderr    string
	}{
		{"another model", "model = \"/models/glove\"\n", nil, 0, "names another model (/models/glove) and was left as it is; to use this one, set model = "},
		{"--no-config", "vault = \"/notes\"\n", []string{"--no-config"}, 0, ""},
		{"a broken config", "vualt = \"/notes\"\n", nil, 1, "it was not recorded in the config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := filepath.Join(t.TempDir(), "config.toml")
			os.WriteFile(cfg, []byte(tc.src), 0o644)
			t.Setenv("VAULTCTX_CONFIG", cfg)
			code, out, errOut := runStderr(t, append(pull, tc.flags...)...)
			if code != tc.code || strings.TrimSpace(out) != dir || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("exit %d (want %d), stdout %q, stderr %q (want %q)", code, tc.code, out, errOut, tc.stderr)
			}
			if got, _ := os.ReadFile(cfg); string(got) != tc.src {
				t.Errorf("config changed to %q", got)
			}
		})
	}
}

// TestModelPullThenIndex runs the retry that scripts/install.sh prints
// after an offline install, `vaultctx model pull && vaultctx index`,
// against a local hub: the config the installer wrote names a vault and
// no model, the index is BM25-only, and after the two commands the index
// holds vectors from the pulled model. (The pull names a revision: the
// default model's pinned digests cannot be served from ../shared.)
func TestModelPullThenIndex(t *testing.T) {
	home := isolateCLI(t)
	usePullHelper(t)
	vault := filepath.Join(home, "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/obsidian/tasks-demo-vault"), vault)
	cfg := filepath.Join(home, "config", "vaultctx", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	os.WriteFile(cfg, []byte("# vaultctx config, written by scripts/install.sh.\nvault = \""+vault+"\"\n\n[hooks]\nposttooluse = false\n"), 0o644)
	if code, out := runCaptured(t, "index"); code != 0 || !strings.Contains(out, "BM25 only") {
		t.Fatalf("offline index: exit %d: %s", code, out)
	}
	srv := fakeHub(t, filepath.Join(sharedModels, "glove-120k"), embed.DefaultModel, "test")
	if code, out, errOut := runStderr(t, "model", "pull", "--base-url", srv.URL, "--revision", "test"); code != 0 {
		t.Fatalf("model pull: exit %d: %s %s", code, out, errOut)
	}
	code, out := runCaptured(t, "index")
	if code != 0 || !strings.Contains(out, "BM25 + vectors") {
		t.Fatalf("index after the pull: exit %d: %s", code, out)
	}
	code, out = runCaptured(t, "status", "--json")
	var st statusReport
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("status: exit %d: %s", code, out)
	}
	want, _ := embed.DefaultDir(os.Getenv, embed.DefaultModel)
	if !st.VecAvailable || st.Vectors == 0 || st.Vectors != st.Chunks || st.ModelDir != want {
		t.Errorf("after the retry: %d vectors for %d chunks, vec %v, model %q; want every chunk embedded with %s", st.Vectors, st.Chunks, st.VecAvailable, st.ModelDir, want)
	}
	data, _ := os.ReadFile(cfg)
	if !strings.Contains(string(data), "vault = \""+vault+"\"\nmodel = \""+want+"\"\n\n[hooks]\nposttooluse = false\n") {
		t.Errorf("config after the pull:\n%s", data)
	}
}
