package posttool

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/hookio"
	"github.com/vaultctx/vaultctx/core/internal/handoff"
)

// NoteTools are the tools whose tool_input.file_path the PostToolUse hook
// re-indexes when it names a note of the vault (NoteWritten).
var NoteTools = []string{"Write", "Edit", "MultiEdit"}

// NoteWritten answers a PostToolUse payload of a NoteTools call: when
// tool_input.file_path is a note of cfg's vault (inside its root, through
// symlinks, and a note under its include, exclude and extension rules) and
// the index exists, it hands a refresh of the index to a detached
// background run (core/internal/handoff: one at a time, again while
// requests arrive) and returns at once; the next prompt then finds the
// note once that run, an incremental index of a few files, is done. It
// prints nothing: it returns nil, and the hand-off's error (no vaultctx
// executable, an index folder it cannot write). bin is the vaultctx
// executable ("" = beside this program, then on PATH).
func NoteWritten(ctx context.Context, cfg config.Config, in hookio.Input, bin string) ([]byte, error) {
	if in.Event != "" && in.Event != "PostToolUse" || !slices.Contains(NoteTools, in.ToolName) {
		return nil, nil
	}
	rel, ok := vaultNote(cfg, in.ToolInput.Get("file_path").String(), in.Cwd)
	if !ok {
		return nil, nil
	}
	if _, err := os.Stat(cfg.DB); errors.Is(err, os.ErrNotExist) {
		return nil, nil // nothing indexed yet: `vaultctx index` builds it
	}
	hookio.Logger(ctx).Debug("note written: refresh handed off", "note", rel, "tool", in.ToolName)
	return nil, handoff.Index(cfg, bin, os.Getenv)
}

// vaultNote returns the vault-relative path of file when it is a note of
// cfg's vault. A relative file is taken against cwd, as Claude Code's
// tools would.
func vaultNote(cfg config.Config, file, cwd string) (string, bool) {
	if cfg.Vault == "" || file == "" {
		return "", false
	}
	if !filepath.IsAbs(file) {
		if cwd == "" {
			return "", false
		}
		file = filepath.Join(cwd, file)
	}
	root, err := filepath.Abs(cfg.Vault)
	if err != nil {
		return "", false
	}
	rel, ok := under(root, filepath.Clean(file))
	if !ok {
		// The vault or the note's folder may be reached through a symlink.
		r, err1 := filepath.EvalSymlinks(root)
		d, err2 := filepath.EvalSymlinks(filepath.Dir(file))
		if err1 != nil || err2 != nil {
			return "", false
		}
		if rel, ok = under(r, filepath.Join(d, filepath.Base(file))); !ok {
			return "", false
		}
	}
	rel = filepath.ToSlash(rel)
	return rel, cfg.Rules().Match(rel)
}

// under returns path relative to root when it lies inside it.
func under(root, path string) (string, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}
