package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/vaultctx/vaultctx/core/embed"
	"github.com/vaultctx/vaultctx/core/internal/fsx"
)

// DefaultRevision pins embed.DefaultModel to a Hugging Face commit.
const DefaultRevision = "bf8b056651a2c21b8d2565580b8569da283cab23"

// ModelFiles are the files Pull downloads, in order.
var ModelFiles = []string{"config.json", "tokenizer.json", "model.safetensors"}

// defaultDigests are the SHA-256 digests of embed.DefaultModel's files at
// DefaultRevision, as published by projects that pin the same model.
var defaultDigests = map[string]string{
	"config.json":       "2a6ac0e9aaa356a68a5688070db78fc3a464fefe85d2f06a1905ce3718687553",
	"tokenizer.json":    "e67e803f624fb4d67dea1c730d06e1067e1b14d830e2c2202569e3ef0f70bb50",
	"model.safetensors": "f65d0f325faadc1e121c319e2faa41170d3fa07d8c89abd48ca5358d9a223de2",
}

// ErrDigestMismatch is returned by Pull when a downloaded file's SHA-256
// differs from the pinned one; the bad download is deleted.
var ErrDigestMismatch = errors.New("digest mismatch")

// PullOptions configures Pull. Zero values take the defaults noted.
type PullOptions struct {
	// Name is the hub repository, default embed.DefaultModel.
	Name string
	// Revision is a commit SHA or branch; default DefaultRevision for
	// DefaultModel, else "main".
	Revision string
	// Dir is the install directory, default embed.DefaultDir(os.Getenv, Name).
	Dir string
	// BaseURL is the hub, default https://huggingface.co.
	BaseURL string
	// Digests maps file names to hex SHA-256 digests to verify; default the
	// pinned digests when Name and Revision are the defaults, else none.
	Digests map[string]string
	// Client does the requests, default a client with a 30 s connect timeout.
	Client *http.Client
	// Logger receives progress at Info level, default discard.
	Logger *slog.Logger
	// Attempts is how many times a broken transfer is resumed, default 4.
	Attempts int
}

// pullMeta is written to Dir/embed.MetaFile after a successful pull; embed
// reads the name from it.
type pullMeta struct {
	Name     string            `json:"name"`
	Revision string            `json:"revision"`
	Source   string            `json:"source"`
	SHA256   map[string]string `json:"sha256"`
	Pulled   time.Time         `json:"pulled"`
}

// Pull downloads config.json, tokenizer.json and model.safetensors from
// <BaseURL>/<Name>/resolve/<Revision>/<file> into Dir and returns Dir.
//
// Each file downloads to a .part file in a staging directory beside Dir; a
// broken transfer resumes with an HTTP Range request (now, up to Attempts
// times, or on the next Pull). A finished file is checked against its digest
// (ErrDigestMismatch) and renamed into Dir only when all three are good;
// vaultctx-model.json is written last. A Dir that already holds the same
// name, revision and digests is left alone.
func Pull(ctx context.Context, opt PullOptions) (string, error) {
	if opt.Name == "" {
		opt.Name = embed.DefaultModel
	}
	if opt.Revision == "" {
		opt.Revision = "main"
		if opt.Name == embed.DefaultModel {
			opt.Revision = DefaultRevision
		}
	}
	if opt.Digests == nil && opt.Name == embed.DefaultModel && opt.Revision == DefaultRevision {
		opt.Digests = defaultDigests
	}
	if opt.Dir == "" {
		dir, err := embed.DefaultDir(os.Getenv, opt.Name)
		if err != nil {
			return "", fmt.Errorf("pull: %w", err)
		}
		opt.Dir = dir
	}
	if opt.BaseURL == "" {
		opt.BaseURL = "https://huggingface.co"
	}
	if opt.Client == nil {
		opt.Client = &http.Client{Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			TLSHandshakeTimeout:   30 * time.Second,
			ResponseHeaderTimeout: 60 * time.Second,
		}}
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Attempts <= 0 {
		opt.Attempts = 4
	}
	if strings.Contains(opt.Name, "..") || strings.HasPrefix(opt.Name, "/") {
		return "", fmt.Errorf("pull: bad model name %q", opt.Name)
	}
	if u, err := url.Parse(opt.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("pull: base URL %q is not an http or https URL", opt.BaseURL)
	}
	dir, err := filepath.Abs(opt.Dir)
	if err != nil {
		return "", fmt.Errorf("pull: %w", err)
	}
	if upToDate(dir, opt) {
		opt.Logger.Info("model already installed", "name", opt.Name, "revision", opt.Revision, "dir", dir)
		return dir, nil
	}
	// The files go into dir itself: into a folder that holds other things
	// (--dir ., --dir /) they would be mixed with them.
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 && !exists(filepath.Join(dir, "config.json")) {
		return "", fmt.Errorf("pull: %s holds other files and no model; pull into a new or empty folder", dir)
	}
	staging := filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".pull")
	if err := os.MkdirAll(staging, 0o755); err != nil {
		return "", fmt.Errorf("pull: %w", err)
	}
	// One pull into dir at a time: two wrote the same .part files, and one
	// could install a file made of both (TestPullExcludesAnother). The
	// lock file stays: removing it would let a pull that opened it before
	// the removal and one that creates it afresh both hold "the" lock.
	release, err := fsx.TryLock(staging + ".lock")
	if errors.Is(err, fsx.ErrLocked) {
		return "", fmt.Errorf("pull: another pull into %s is running; wait for it, or stop it and pull again (it resumes)", dir)
	}
	if err != nil {
		return "", fmt.Errorf("pull: %w", err)
	}
	defer release()
	sums := map[string]string{}
	for _, f := range ModelFiles {
		url := strings.TrimRight(opt.BaseURL, "/") + "/" + opt.Name + "/resolve/" + opt.Revision + "/" + f
		final := filepath.Join(staging, f)
		sum, err := fetch(ctx, opt, url, final, opt.Digests[f])
		if err != nil {
			os.Remove(staging) // only when empty: what did download stays for the next pull to resume
			return "", fmt.Errorf("pull %s@%s: %s: %w", opt.Name, opt.Revision, f, err)
		}
		sums[f] = sum
	}
	// Digests pin the default model alone: for any other, a hub that
	// answers 200 with something else (a login page, a file cut short)
	// must not install it as a model that fails only when used.
	if err := checkModel(staging); err != nil {
		for _, f := range ModelFiles {
			os.Remove(filepath.Join(staging, f))
		}
		return "", fmt.Errorf("pull %s@%s: the files downloaded from %s are not a Model2Vec model, so nothing was installed: %w", opt.Name, opt.Revision, opt.BaseURL, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("pull: %w", err)
	}
	for _, f := range ModelFiles {
		if err := os.Rename(filepath.Join(staging, f), filepath.Join(dir, f)); err != nil {
			return "", fmt.Errorf("pull: install %s: %w", f, err)
		}
	}
	meta, _ := json.MarshalIndent(pullMeta{Name: opt.Name, Revision: opt.Revision, Source: opt.BaseURL, SHA256: sums, Pulled: time.Now().UTC()}, "", "  ")
	// Not durable, like the model files: a meta file lost in a crash only
	// means the next Pull fetches again.
	if err := fsx.WriteAtomic(filepath.Join(dir, embed.MetaFile), append(meta, '\n'), 0o600, false); err != nil {
		return "", fmt.Errorf("pull: %w", err)
	}
	os.RemoveAll(staging)
	opt.Logger.Info("model installed", "name", opt.Name, "revision", opt.Revision, "dir", dir)
	return dir, nil
}

// checkModel reports why the downloaded files in dir are not a model
// embed opens: the config and the safetensors header must parse and agree
// (embed.OpenOptions, without caches), and tokenizer.json must be JSON.
func checkModel(dir string) error {
	m, err := embed.OpenOptions(dir, embed.Options{CacheDir: "-"})
	if err != nil {
		return err
	}
	m.Close()
	tok, err := os.ReadFile(filepath.Join(dir, "tokenizer.json"))
	if err != nil {
		return err
	}
	if !json.Valid(tok) {
		return errors.New("tokenizer.json is not JSON")
	}
	return nil
}

// upToDate reports whether dir already holds this name and revision with
// the wanted digests (checked against the recorded ones).
func upToDate(dir string, opt PullOptions) bool {
	data, err := os.ReadFile(filepath.Join(dir, embed.MetaFile))
	if err != nil {
		return false
	}
	var m pullMeta
	if json.Unmarshal(data, &m) != nil || m.Name != opt.Name || m.Revision != opt.Revision {
		return false
	}
	for _, f := range ModelFiles {
		if !exists(filepath.Join(dir, f)) || m.SHA256[f] == "" {
			return false
		}
		if want := opt.Digests[f]; want != "" && !strings.EqualFold(want, m.SHA256[f]) {
			return false
		}
	}
	return true
}

// fetch downloads url to final (through final+".part"), resuming, and
// returns the file's hex SHA-256 after checking it against want.
func fetch(ctx context.Context, opt PullOptions, url, final, want string) (string, error) {
	part := final + ".part"
	if exists(final) {
		// Finished in an earlier run but not installed: check again.
		sum, err := embed.SHA256File(final)
		if err == nil && (want == "" || strings.EqualFold(sum, want)) {
			return sum, nil
		}
		os.Remove(final)
	}
	var lastErr error
	for attempt := 0; attempt < opt.Attempts; attempt++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		done, err := fetchOnce(ctx, opt, url, part)
		if err != nil {
			lastErr = err
			var perm permanentError
			if errors.As(err, &perm) {
				return "", perm.err
			}
			if ctx.Err() != nil {
				return "", ctx.Err() // stopped, not broken: nothing to resume now
			}
			opt.Logger.Info("download interrupted, resuming", "url", url, "attempt", attempt+1, "err", err)
			continue
		}
		if done {
			lastErr = nil
			break
		}
	}
	if lastErr != nil && !exists(part) {
		return "", lastErr
	}
	sum, err := embed.SHA256File(part)
	if err != nil {
		return "", err
	}
	if lastErr != nil {
		// All attempts broke off; keep the .part for the next Pull.
		return "", fmt.Errorf("download incomplete after %d attempts (run pull again to resume): %w", opt.Attempts, lastErr)
	}
	if want != "" && !strings.EqualFold(sum, want) {
		os.Remove(part)
		return "", fmt.Errorf("%w: got sha256 %s, want %s", ErrDigestMismatch, sum, want)
	}
	if err := os.Rename(part, final); err != nil {
		return "", err
	}
	return sum, nil
}

// permanentError marks failures a retry cannot fix (4xx, bad URL).
type permanentError struct{ err error }

func (p permanentError) Error() string { return p.err.Error() }

// fetchOnce makes one request, appending to part from its current size.
// It returns true when the body was read to its end.
func fetchOnce(ctx context.Context, opt PullOptions, url, part string) (bool, error) {
	var offset int64
	if st, err := os.Stat(part); err == nil {
		offset = st.Size()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false, permanentError{err}
	}
	req.Header.Set("User-Agent", "vaultctx")
	if offset > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(offset, 10)+"-")
	}
	resp, err := opt.Client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return false, permanentError{ctx.Err()}
		}
		return false, permanentError{fmt.Errorf("cannot reach %s (offline?): %w", opt.BaseURL, err)}
	}
	defer resp.Body.Close()
	flags := os.O_CREATE | os.O_WRONLY
	switch {
	case resp.StatusCode == http.StatusPartialContent && offset > 0:
		if !strings.HasPrefix(resp.Header.Get("Content-Range"), "bytes "+strconv.FormatInt(offset, 10)+"-") {
			os.Remove(part)
			return false, fmt.Errorf("server resumed at the wrong offset (%q); restarting", resp.Header.Get("Content-Range"))
		}
		flags |= os.O_APPEND
	case resp.StatusCode == http.StatusOK:
		flags |= os.O_TRUNC
		offset = 0
	case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable && offset > 0:
		return true, nil // the .part already holds the whole file
	case resp.StatusCode >= 400 && resp.StatusCode < 500:
		return false, permanentError{fmt.Errorf("server refused %s: %s", url, resp.Status)}
	default:
		return false, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	f, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return false, permanentError{err}
	}
	n, cerr := io.Copy(f, resp.Body)
	if err := f.Close(); err != nil && cerr == nil {
		cerr = err
	}
	opt.Logger.Info("downloaded", "url", url, "from", offset, "bytes", n)
	if cerr != nil {
		return false, cerr
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return false, fmt.Errorf("short body: %d of %d bytes", n, resp.ContentLength)
	}
	return true, nil
}

func exists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
