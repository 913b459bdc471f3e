package hub

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/internal/fsx"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

func modelPath(tb testing.TB, name string) string { return testkit.Shared(tb, "models", name) }

// hub serves a fixture model directory the way huggingface.co resolve URLs
// do, with Range support from http.ServeContent. dropFirst makes the first
// dropFirst full (non-Range) responses for model.safetensors break off after
// half the body.
type hub struct {
	dir       string
	name, rev string
	dropFirst int
	status    int

	mu       sync.Mutex
	requests []string
}

func (h *hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.requests = append(h.requests, r.URL.Path+" range="+r.Header.Get("Range"))
	drop := false
	if strings.HasSuffix(r.URL.Path, "model.safetensors") && r.Header.Get("Range") == "" && h.dropFirst > 0 {
		h.dropFirst--
		drop = true
	}
	h.mu.Unlock()
	if h.status != 0 {
		http.Error(w, http.StatusText(h.status), h.status)
		return
	}
	prefix := "/" + h.name + "/resolve/" + h.rev + "/"
	if !strings.HasPrefix(r.URL.Path, prefix) {
		http.NotFound(w, r)
		return
	}
	data, err := os.ReadFile(filepath.Join(h.dir, strings.TrimPrefix(r.URL.Path, prefix)))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	if drop {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.WriteHeader(http.StatusOK)
		w.Write(data[:len(data)/2])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // cut the connection mid-body
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
}

func (h *hub) sawRange() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.requests {
		if strings.Contains(r, "model.safetensors range=bytes=") {
			return true
		}
	}
	return false
}

func fixtureDigests(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	out := map[string]string{}
	for _, f := range ModelFiles {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			tb.Fatal(err)
		}
		s := sha256.Sum256(data)
		out[f] = hex.EncodeToString(s[:])
	}
	return out
}

func newHub(t *testing.T, drop int) (*hub, *httptest.Server) {
	h := &hub{dir: modelPath(t, "m2v-fixtures/float32"), name: "acme/tiny", rev: "0123abcd", dropFirst: drop}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return h, srv
}

func TestPull(t *testing.T) {
	digests := fixtureDigests(t, modelPath(t, "m2v-fixtures/float32"))
	tests := []struct {
		name     string
		drop     int
		attempts int
		pulls    int // Pull calls needed
	}{
		{"clean", 0, 0, 1},
		{"dropped then resumed in the same pull", 1, 0, 1},
		{"dropped, resumed by the next pull", 1, 1, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, srv := newHub(t, tc.drop)
			dir := filepath.Join(t.TempDir(), "models", "acme", "tiny")
			opt := PullOptions{Name: h.name, Revision: h.rev, Dir: dir, BaseURL: srv.URL, Digests: digests, Attempts: tc.attempts}
			var got string
			var err error
			for i := 0; i < tc.pulls; i++ {
				got, err = Pull(t.Context(), opt)
				if i < tc.pulls-1 {
					if err == nil {
						t.Fatalf("pull %d succeeded, want a broken download", i)
					}
					if exists(filepath.Join(dir, "model.safetensors")) {
						t.Fatal("a broken pull installed model.safetensors")
					}
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != dir {
				t.Errorf("dir %q, want %q", got, dir)
			}
			if tc.drop > 0 && !h.sawRange() {
				t.Errorf("no Range request after the drop; requests %v", h.requests)
			}
			if d := fixtureDigests(t, dir); d["model.safetensors"] != digests["model.safetensors"] {
				t.Errorf("installed model digest %s", d["model.safetensors"])
			}
			m, err := embed.OpenOptions(dir, embed.Options{CacheDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if m.Name() != h.name {
				t.Errorf("Name() = %q, want %q", m.Name(), h.name)
			}
			if _, err := m.Encode("hello world"); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(dir), ".tiny.pull")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("staging directory left behind: %v", err)
			}
			// A second pull is a no-op: no new requests.
			before := len(h.requests)
			if _, err := Pull(t.Context(), opt); err != nil {
				t.Fatal(err)
			}
			if len(h.requests) != before {
				t.Errorf("up-to-date pull made %d requests", len(h.requests)-before)
			}
		})
	}
}

func TestPullFailures(t *testing.T) {
	digests := fixtureDigests(t, modelPath(t, "m2v-fixtures/float32"))
	bad := map[string]string{}
	for k, v := range digests {
		bad[k] = v
	}
	bad["tokenizer.json"] = strings.Repeat("0", 64)
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	tests := []struct {
		name    string
		status  int
		base    string
		digests map[string]string
		wantIs  error
		wantMsg string
	}{
		{"digest mismatch", 0, "", bad, ErrDigestMismatch, "tokenizer.json"},
		{"refused", http.StatusNotFound, "", digests, nil, "refused"},
		{"forbidden", http.StatusForbidden, "", digests, nil, "refused"},
		{"offline", 0, closedURL, digests, nil, "cannot reach"},
		{"not a URL", 0, "not a url", digests, nil, `base URL "not a url" is not an http or https URL`},
		{"no scheme", 0, "127.0.0.1:1", digests, nil, "is not an http or https URL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, srv := newHub(t, 0)
			h.status = tc.status
			base := srv.URL
			if tc.base != "" {
				base = tc.base
			}
			dir := filepath.Join(t.TempDir(), "m")
			_, err := Pull(t.Context(), PullOptions{Name: h.name, Revision: h.rev, Dir: dir, BaseURL: base, Digests: tc.digests})
			if err == nil {
				t.Fatal("pull succeeded")
			}
			if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
				t.Errorf("error %v, want %v", err, tc.wantIs)
			}
			if !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("error %q does not mention %q", err, tc.wantMsg)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("failed pull created %s", dir)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(dir), ".m.pull")); tc.name != "digest mismatch" && !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a pull that downloaded nothing left its staging folder (%v)", err)
			}
		})
	}
	// A folder that holds other things and no model is not filled with
	// model files (--dir . in a home folder, --dir /).
	h, srv := newHub(t, 0)
	busy := t.TempDir()
	os.WriteFile(filepath.Join(busy, "notes.md"), []byte("mine\n"), 0o644)
	if _, err := Pull(t.Context(), PullOptions{Name: h.name, Revision: h.rev, Dir: busy, BaseURL: srv.URL}); err == nil || !strings.Contains(err.Error(), "holds other files and no model") {
		t.Errorf("pull into a folder of other files: %v", err)
	}
	if exists(filepath.Join(busy, "model.safetensors")) {
		t.Error("model files were mixed into a folder of other files")
	}
}

func TestDefaultDir(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    string
		wantErr bool
	}{
		{"XDG_DATA_HOME", map[string]string{"XDG_DATA_HOME": "/data", "HOME": "/h"}, "/data/vaultctx/models/minishlab/potion-base-8M", false},
		{"under HOME", map[string]string{"HOME": "/h"}, "/h/.local/share/vaultctx/models/minishlab/potion-base-8M", false},
		{"no home is an error, not the working folder", map[string]string{"XDG_DATA_HOME": "rel"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := embed.DefaultDir(func(k string) string { return tt.env[k] }, embed.DefaultModel)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("DefaultDir = %q, %v; want %q (error %v)", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// The default model is pinned: pulling it checks the published digests, so
// the fixture (a different model) served under its name is refused, while
// its tokenizer.json (the same bge vocabulary as potion-base-8M) passes.
func TestPullDefaultIsPinned(t *testing.T) {
	h := &hub{dir: modelPath(t, "m2v-fixtures/float32"), name: embed.DefaultModel, rev: DefaultRevision}
	srv := httptest.NewServer(h)
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "potion")
	_, err := Pull(t.Context(), PullOptions{Dir: dir, BaseURL: srv.URL})
	if !errors.Is(err, ErrDigestMismatch) || !strings.Contains(err.Error(), "config.json") {
		t.Fatalf("got %v, want a config.json digest mismatch", err)
	}
	if got := fixtureDigests(t, h.dir)["tokenizer.json"]; got != defaultDigests["tokenizer.json"] {
		t.Errorf("fixture tokenizer digest %s, pinned %s", got, defaultDigests["tokenizer.json"])
	}
}

// TestPullExcludesAnother: while another pull holds the staging lock of a
// directory (two pulls into it once wrote the same .part files, and one
// installed a tokenizer made of both), a pull into it fails at once and
// installs nothing; once the lock is free it succeeds.
func TestPullExcludesAnother(t *testing.T) {
	h, srv := newHub(t, 0)
	dir := filepath.Join(t.TempDir(), "models", "acme", "tiny")
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	release, err := fsx.TryLock(filepath.Join(filepath.Dir(dir), ".tiny.pull.lock"))
	if err != nil {
		t.Fatal(err)
	}
	opt := PullOptions{Name: h.name, Revision: h.rev, Dir: dir, BaseURL: srv.URL}
	if _, err := Pull(t.Context(), opt); err == nil || !strings.Contains(err.Error(), "another pull into "+dir+" is running") {
		t.Fatalf("pull beside another: %v, want the other pull named", err)
	}
	if exists(filepath.Join(dir, "tokenizer.json")) {
		t.Fatal("a pull beside another installed files")
	}
	release()
	if got, err := Pull(t.Context(), opt); err != nil || got != dir {
		t.Fatalf("pull after the other: %q, %v", got, err)
	}
}

// TestPullRefusesJunk: a hub that answers 200 with something that is not
// the model (a page of HTML for each file) installs nothing, and says so.
func TestPullRefusesJunk(t *testing.T) {
	junk := t.TempDir()
	for _, f := range ModelFiles {
		if err := os.WriteFile(filepath.Join(junk, f), []byte("<html><body>Sign in to continue</body></html>\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := &hub{dir: junk, name: "acme/tiny", rev: "r1"}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	dir := filepath.Join(t.TempDir(), "tiny")
	_, err := Pull(t.Context(), PullOptions{Name: h.name, Revision: h.rev, Dir: dir, BaseURL: srv.URL})
	if err == nil || !strings.Contains(err.Error(), "are not a Model2Vec model, so nothing was installed") {
		t.Fatalf("pull of junk: %v, want it refused", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("pull of junk left %s (%v)", dir, err)
	}
	// The real files, served next, install.
	h.dir = modelPath(t, "m2v-fixtures/float32")
	if got, err := Pull(t.Context(), PullOptions{Name: h.name, Revision: h.rev, Dir: dir, BaseURL: srv.URL}); err != nil || got != dir {
		t.Fatalf("pull after the junk: %q, %v", got, err)
	}
}
