package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/internal/testkit"
)

// hubOf serves the model folder src as huggingface.co resolve URLs do,
// for the repository name at revision rev.
func hubOf(t *testing.T, src, name, rev string) *httptest.Server {
	t.Helper()
	prefix := "/" + name + "/resolve/" + rev + "/"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		file, ok := strings.CutPrefix(r.URL.Path, prefix)
		data, err := os.ReadFile(filepath.Join(src, filepath.Base(file)))
		if !ok || err != nil {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, "", time.Unix(0, 0), bytes.NewReader(data))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRun: a pull prints the directory and nothing else on stdout; a
// failed one says why on stderr, as vaultctx does, and exits 1; an
// interrupted one exits 130; bad flags exit 2.
func TestRun(t *testing.T) {
	srv := hubOf(t, testkit.Shared(t, "models/m2v-fixtures/float32"), "acme/tiny", "r1")
	ctx := context.Background()
	call := func(ctx context.Context, args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := run(ctx, args, &out, &errOut)
		return code, out.String(), errOut.String()
	}

	dir := filepath.Join(t.TempDir(), "tiny")
	code, out, errOut := call(ctx, "--name", "acme/tiny", "--revision", "r1", "--dir", dir, "--base-url", srv.URL)
	if code != 0 || out != dir+"\n" {
		t.Fatalf("pull: exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	m, err := embed.Open(dir)
	if err != nil {
		t.Fatalf("the pulled model does not open: %v", err)
	}
	m.Close()

	code, out, errOut = call(ctx, "--name", "acme/missing", "--dir", filepath.Join(t.TempDir(), "x"), "--base-url", srv.URL)
	if code != 1 || out != "" || !strings.HasPrefix(lastLine(errOut), "vaultctx: model pull: ") {
		t.Errorf("missing model: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	code, out, errOut = call(cancelled, "--name", "acme/tiny", "--revision", "r1", "--dir", filepath.Join(t.TempDir(), "z"), "--base-url", srv.URL)
	if code != 130 || out != "" || !strings.Contains(errOut, "interrupted") {
		t.Errorf("interrupted pull: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	for _, args := range [][]string{{"--nope"}, {"stray"}} {
		if code, out, _ := call(ctx, args...); code != 2 || out != "" {
			t.Errorf("%q: exit %d, stdout %q; want 2 and nothing", args, code, out)
		}
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}
