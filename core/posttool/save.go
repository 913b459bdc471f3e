package posttool

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vaultctx/vaultctx/core/internal/fsx"
	"github.com/vaultctx/vaultctx/core/internal/session"
	"github.com/vaultctx/vaultctx/core/scrub"
)

// stderrSeparator separates stdout from stderr in a saved full output.
const stderrSeparator = "\n----- stderr -----\n"

// OutputPath returns where the full output of tool use toolUseID is saved
// under dir: dir/<session.SafeName(toolUseID)>.txt. An empty toolUseID is
// replaced by a SHA-256 of the output, so the path is a pure function of
// the request.
func OutputPath(dir, toolUseID, stdout, stderr string) string {
	name := toolUseID
	if name == "" {
		h := sha256.New()
		h.Write([]byte(stdout))
		h.Write([]byte(stderrSeparator))
		h.Write([]byte(stderr))
		name = "sha256-" + hex.EncodeToString(h.Sum(nil)[:12])
	}
	return filepath.Join(dir, session.SafeName(name)+".txt")
}

// SaveOutput writes the raw output (stdout, then stderrSeparator and stderr
// when stderr is not empty) to path with mode 0600, creating its directory
// with mode 0700, and then deletes all but the keep newest *.txt files in
// that directory (keep <= 0 means DefaultKeepOutputs). Errors of the write
// are returned; pruning errors are ignored.
func SaveOutput(ctx context.Context, path, stdout, stderr string, keep int) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("save output: %w", err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save output: %w", err)
	}
	// The saved file is read back by the agent: it gets the same credential
	// scrubbing as the extract.
	sc := scrub.Default()
	stdout, _ = sc.Scrub(stdout)
	stderr, _ = sc.Scrub(stderr)
	if err := writeOutput(path, stdout, stderr); err != nil {
		return fmt.Errorf("save output: %w", err)
	}
	if keep <= 0 {
		keep = DefaultKeepOutputs
	}
	pruneOutputs(dir, keep, filepath.Base(path))
	return nil
}

// writeOutput atomically writes stdout, then (when stderr is not empty)
// stderrSeparator and stderr, to path with mode 0600, without joining them
// first: outputs are up to megabytes. A cache file need not survive a
// crash, so it is not fsynced.
func writeOutput(path, stdout, stderr string) error {
	f, err := fsx.Create(path, 0o600)
	if err != nil {
		return err
	}
	parts := []string{stdout}
	if stderr != "" {
		parts = append(parts, stderrSeparator, stderr)
	}
	for _, p := range parts {
		if _, err := f.WriteString(p); err != nil {
			f.Abort()
			return err
		}
	}
	return f.Commit(false)
}

// pruneOutputs keeps the newest keep *.txt files of dir (by modification
// time, then name), never deleting the file just written.
func pruneOutputs(dir string, keep int, current string) {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) <= keep {
		return
	}
	type file struct {
		name string
		mod  int64
	}
	var files []file
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, file{e.Name(), info.ModTime().UnixNano()})
	}
	sort.Slice(files, func(a, b int) bool {
		if files[a].mod != files[b].mod {
			return files[a].mod > files[b].mod
		}
		return files[a].name > files[b].name
	})
	for i := keep; i < len(files); i++ {
		if files[i].name != current {
			_ = os.Remove(filepath.Join(dir, files[i].name))
		}
	}
}
