package settings

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vaultctx/vaultctx/core/internal/fsx"
)

// UserPath returns the user-level settings file: $CLAUDE_CONFIG_DIR/settings.json
// when CLAUDE_CONFIG_DIR is set, else $HOME/.claude/settings.json. getenv is
// os.Getenv in production. A leading "~/" in CLAUDE_CONFIG_DIR is expanded.
func UserPath(getenv func(string) string) (string, error) {
	home := getenv("HOME")
	if dir := getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		if rest, ok := strings.CutPrefix(dir, "~/"); ok && home != "" {
			dir = filepath.Join(home, rest)
		}
		return filepath.Join(dir, "settings.json"), nil
	}
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("settings path: set HOME or CLAUDE_CONFIG_DIR: %w", err)
		}
		home = h
	}
	return filepath.Join(home, ".claude", "settings.json"), nil
}

// ProjectPath returns the project-level settings file of the project rooted
// at dir: dir/.claude/settings.json.
func ProjectPath(dir string) string {
	return filepath.Join(dir, ".claude", "settings.json")
}

// Result says what Install or Uninstall did to a settings file.
type Result struct {
	Path    string // the file edited, with symlinks resolved
	Changed bool   // the file's bytes changed
	Created bool   // the file did not exist before
	Backup  string // the copy of the previous contents; "" when none was needed
}

// ErrConcurrentEdit is returned when the settings file changed on disk
// while it was being edited (Claude Code or another tool wrote it). Nothing
// was written; run the command again.
var ErrConcurrentEdit = errors.New("settings file changed while it was being edited; nothing written, run again")

// Install merges plan into the settings file at path (see Merge). A missing
// file, and its directory, are created. Before an existing file changes, a
// copy is written beside it (see Result.Backup; the newest MaxBackups are
// kept, see PruneBackups); the new contents are
// written to a temporary file in the same directory with the same
// permissions, then renamed over the file. A symlinked file is edited at its
// target. Invalid JSON returns a *SyntaxError naming path and the file is
// not touched.
func Install(ctx context.Context, path string, plan *Plan) (Result, error) {
	if plan == nil {
		return Result{}, errors.New("install hooks: nil plan")
	}
	return edit(ctx, path, true, func(src []byte) ([]byte, error) { return Merge(src, plan) })
}

// Uninstall removes our hook entries from the settings file at path (see
// Remove), with the same backup and atomic write as Install. A missing
// file is left missing.
func Uninstall(ctx context.Context, path string) (Result, error) {
	return edit(ctx, path, false, Remove)
}

// Report is what Status finds in a settings file.
type Report struct {
	Entries []Entry // every command hook, in file order
	// Disabled is true when the file sets "disableAllHooks": true; Claude
	// Code then runs no hooks at all, ours included.
	Disabled bool
}

// Status reads the settings file at path and lists its command hooks (see
// Inspect). A missing file has none.
func Status(ctx context.Context, path string) (Report, error) {
	if err := ctx.Err(); err != nil {
		return Report{}, err
	}
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Report{}, nil
	}
	if err != nil {
		return Report{}, fmt.Errorf("read settings: %w", err)
	}
	entries, err := Inspect(src)
	if err != nil {
		return Report{}, withPath(err, path)
	}
	return Report{Entries: entries, Disabled: Disabled(src)}, nil
}

// withPath names the file in an error from the pure functions.
func withPath(err error, path string) error {
	if err == nil {
		return nil
	}
	var se *SyntaxError
	if errors.As(err, &se) {
		se.Path = path
		return se
	}
	return fmt.Errorf("%s: %w", path, err)
}

// edit applies change to the file at path with backup and atomic rename.
func edit(ctx context.Context, path string, create bool, change func([]byte) ([]byte, error)) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	real, err := resolve(path)
	if err != nil {
		return Result{}, err
	}
	res := Result{Path: real}
	src, err := os.ReadFile(real)
	var mode fs.FileMode = 0o600
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if !create {
			return res, nil
		}
		res.Created = true
		src = nil
	case err != nil:
		return res, fmt.Errorf("read settings: %w", err)
	default:
		fi, err := os.Stat(real)
		if err != nil {
			return res, fmt.Errorf("read settings: %w", err)
		}
		mode = fi.Mode().Perm()
	}
	out, err := change(src)
	if err != nil {
		return res, withPath(err, real)
	}
	if bytes.Equal(out, src) {
		return res, nil
	}
	if res.Created || len(bytes.TrimSpace(src)) == 0 {
		out = append(bytes.TrimRight(out, "\n"), '\n')
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	dir := filepath.Dir(real)
	if res.Created {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return res, fmt.Errorf("create settings dir: %w", err)
		}
	} else {
		b, err := backup(real, src, mode)
		if err != nil {
			return res, err
		}
		res.Backup = b
	}
	if err := writeAtomic(real, src, res.Created, out, mode); err != nil {
		return res, err
	}
	res.Changed = true
	if res.Backup != "" {
		// Old backups are a convenience, not part of the edit: a failure
		// to prune them leaves them for the next run.
		_, _ = PruneBackups(real, MaxBackups)
	}
	return res, nil
}

// resolve follows symlinks of path so that a settings file kept in a
// dotfiles repository stays a symlink. A path that does not exist yet is
// returned cleaned; a dangling symlink is followed to where it points.
func resolve(path string) (string, error) {
	p, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("settings path: %w", err)
	}
	for range 40 {
		target, err := os.Readlink(p)
		if err != nil {
			return p, nil // not a symlink, or missing
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	return "", fmt.Errorf("settings path %s: too many symlinks", path)
}

// backupLayout is the timestamp in backup names, UTC, sortable.
const backupLayout = "20060102T150405Z"

// MaxBackups is how many backups of a settings file Install and Uninstall
// keep beside it: after writing one, they delete the oldest of theirs
// beyond this many (files named as backup names them; no other file is
// touched).
const MaxBackups = 5

// backupInfo is a backup file of ours and its place in time.
type backupInfo struct {
	path string
	when string // the timestamp, backupLayout
	n    int    // 1, or the -N suffix
}

// backups lists the backups of ours beside the settings file path (its
// real path, see Result.Path), oldest first.
func backups(path string) ([]backupInfo, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list settings backups: %w", err)
	}
	var out []backupInfo
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), base+".bak-")
		if !ok || e.IsDir() || len(rest) < len(backupLayout) {
			continue
		}
		when, suffix := rest[:len(backupLayout)], rest[len(backupLayout):]
		if _, err := time.Parse(backupLayout, when); err != nil {
			continue
		}
		n := 1
		if suffix != "" {
			v, err := strconv.Atoi(strings.TrimPrefix(suffix, "-"))
			if !strings.HasPrefix(suffix, "-") || err != nil || v < 2 {
				continue
			}
			n = v
		}
		out = append(out, backupInfo{path: filepath.Join(dir, e.Name()), when: when, n: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].when != out[j].when {
			return out[i].when < out[j].when
		}
		return out[i].n < out[j].n
	})
	return out, nil
}

// PruneBackups deletes the backups Install and Uninstall made of the
// settings file at path (named path.bak-<UTC time>[-N], beside the file a
// symlink at path points to), oldest first, until at most keep remain;
// keep 0 deletes them all. It returns the files deleted, and an error for
// a folder it cannot list or a file it cannot delete.
func PruneBackups(path string, keep int) ([]string, error) {
	real, err := resolve(path)
	if err != nil {
		return nil, err
	}
	bs, err := backups(real)
	if err != nil {
		return nil, err
	}
	var removed []string
	for i := 0; i < len(bs)-max(keep, 0); i++ {
		if err := os.Remove(bs[i].path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("remove settings backup: %w", err)
		}
		removed = append(removed, bs[i].path)
	}
	return removed, nil
}

// backup writes src beside path as path.bak-<UTC time>, adding -2, -3, ...
// after the highest suffix of that second already there (so names sort by
// age even after pruning), with the file's permissions.
func backup(path string, src []byte, mode fs.FileMode) (string, error) {
	when := time.Now().UTC().Format(backupLayout)
	base := path + ".bak-" + when
	first := 1
	if bs, err := backups(path); err == nil {
		for _, b := range bs {
			if b.when == when && b.n >= first {
				first = b.n + 1
			}
		}
	}
	for n := first; n < first+1000; n++ {
		name := base
		if n > 1 {
			name = fmt.Sprintf("%s-%d", base, n)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("back up settings: %w", err)
		}
		_, werr := f.Write(src)
		serr := f.Sync()
		cerr := f.Close()
		if err := errors.Join(werr, serr, cerr); err != nil {
			os.Remove(name)
			return "", fmt.Errorf("back up settings: %w", err)
		}
		return name, nil
	}
	return "", fmt.Errorf("back up settings: too many backups of %s", path)
}

// writeAtomic replaces path with out through a temporary file in the same
// directory, durably (file and folder fsynced), with the file mode mode. It
// first checks that path still holds prev (or is still missing when
// created), so a concurrent writer's change is not lost.
func writeAtomic(path string, prev []byte, created bool, out []byte, mode fs.FileMode) error {
	f, err := fsx.Create(path, mode)
	if err != nil {
		return fmt.Errorf("write settings: %w", err)
	}
	if _, err := f.Write(out); err != nil {
		f.Abort()
		return fmt.Errorf("write settings: %w", err)
	}
	now, err := os.ReadFile(path)
	switch {
	case created && !errors.Is(err, fs.ErrNotExist):
		f.Abort()
		return fmt.Errorf("%s: %w", path, ErrConcurrentEdit)
	case !created && (err != nil || !bytes.Equal(now, prev)):
		f.Abort()
		return fmt.Errorf("%s: %w", path, ErrConcurrentEdit)
	}
	if err := f.Commit(true); err != nil {
		return fmt.Errorf("write settings: %w", err)
	}
	return nil
}
