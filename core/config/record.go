package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"

	"github.com/BurntSushi/toml"

	"github.com/vaultctx/vaultctx/core/internal/fsx"
)

// ModelRecord is what RecordModel found in the config file and did to it.
type ModelRecord struct {
	// File is the config file, with symlinks resolved (the link is kept;
	// its target is what was read and written).
	File string
	// Model is the model folder the file names after the call, resolved as
	// Load resolves it: the folder RecordModel was given, or another
	// model the file already named (then Written is false).
	Model string
	// Written is true when RecordModel created the file or added the line.
	Written bool
	// Created is true when the file did not exist and RecordModel wrote it.
	Created bool
}

// CreatedHeader is the first line of a config file RecordModel creates.
// scripts/install.sh recognises it ("written by vaultctx model pull") as a
// config vaultctx wrote, which the installer may edit.
const CreatedHeader = "# vaultctx config, written by vaultctx model pull. Every key is in core/config/testdata/full.toml."

// RecordModel makes the config file at path (DefaultPath(getenv) when
// path is "") name dir, an embedding model folder, as its `model`, so that
// `vaultctx index`, search and the hooks use it. dir is made absolute.
//
//   - No file: it is created (with its folder) holding CreatedHeader and
//     the model line.
//   - A file without a model key: the line `model = "<dir>"` is added as a
//     top-level key, above the first [table], or else at the top below the
//     leading comments. Every other byte stays; the result is parsed again
//     and must equal the old config with only Model changed, else the file
//     is left alone and an error says which line to add.
//   - A file that names dir already (after "~/" and relative-path
//     resolution), or another model: left unchanged; Model says which.
//
// The write is atomic and durable and keeps the file's mode; a symlinked
// config stays a symlink. Errors: the file's parse error (wrapped with its
// path; the file is not changed), or an I/O error. The environment
// (VAULTCTX_MODEL) is not consulted: it overrides the file, and the caller
// says so.
func RecordModel(path, dir string, getenv func(string) string) (ModelRecord, error) {
	var rec ModelRecord
	if path == "" {
		p, err := defaultPath(getenv)
		if err != nil {
			return rec, fmt.Errorf("config: %w", err)
		}
		path = p
	}
	path = expandHome(path, getenv)
	dir, err := filepath.Abs(expandHome(dir, getenv))
	if err != nil {
		return rec, fmt.Errorf("config: %w", err)
	}
	real, err := realPath(path)
	if err != nil {
		return rec, fmt.Errorf("config %s: %w", path, err)
	}
	rec.File, rec.Model = real, dir
	line, err := modelLine(dir)
	if err != nil {
		return rec, fmt.Errorf("config: %w", err)
	}

	src, err := fsx.ReadRegular(real, MaxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
			return rec, fmt.Errorf("config: %w", err)
		}
		data := []byte(CreatedHeader + "\n" + line + "\n")
		if err := fsx.WriteAtomic(real, data, 0o644, true); err != nil {
			return rec, fmt.Errorf("config: %w", err)
		}
		rec.Written, rec.Created = true, true
		return rec, nil
	}
	if err != nil {
		return rec, fmt.Errorf("config: %w", err)
	}
	old, err := parse(bytes.NewReader(src))
	if err != nil {
		return rec, fmt.Errorf("config %s: %w", real, err)
	}
	if old.Model != "" {
		rec.Model = filepath.Clean(resolve(old.Model, filepath.Dir(real), getenv))
		return rec, nil
	}
	want := old
	want.Model = dir
	for _, next := range withTopKey(src, line) {
		got, err := parse(bytes.NewReader(next))
		if err != nil || !reflect.DeepEqual(got, want) {
			continue
		}
		fi, err := os.Stat(real)
		if err != nil {
			return rec, fmt.Errorf("config: %w", err)
		}
		if err := fsx.WriteAtomic(real, next, fi.Mode().Perm(), true); err != nil {
			return rec, fmt.Errorf("config: %w", err)
		}
		rec.Written = true
		return rec, nil
	}
	return rec, fmt.Errorf("config %s: could not add a top-level model key safely; left unchanged (add this line above its first [table]: %s)", real, line)
}

// modelLine is the TOML line `model = "<dir>"`, dir escaped as TOML needs.
func modelLine(dir string) (string, error) {
	b, err := toml.Marshal(struct {
		Model string `toml:"model"`
	}{dir})
	if err != nil {
		return "", err
	}
	return string(bytes.TrimRight(b, "\n")), nil
}

// withTopKey returns the candidate texts of src with line added as a
// top-level key, best first: just below the last line of content above the
// first line that opens a [table] (or the end of the file), then at the top
// below the leading comments and blank lines (always top level). The caller
// parses each to pick the first that means what it should: a "[" at the
// start of a line inside a multi-line string or array opens no table. The
// line ending follows src (CRLF when its first line ends so).
func withTopKey(src []byte, line string) [][]byte {
	eol := "\n"
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		eol = "\r\n"
	}
	ins := func(at int) []byte {
		out := make([]byte, 0, len(src)+len(line)+2*len(eol))
		out = append(out, src[:at]...)
		if at > 0 && src[at-1] != '\n' {
			out = append(out, eol...)
		}
		out = append(out, line...)
		out = append(out, eol...)
		return append(out, src[at:]...)
	}
	top, afterKey := -1, -1
	at := 0
	if bytes.HasPrefix(src, []byte("\ufeff")) {
		at = 3
	}
	for at < len(src) {
		end := bytes.IndexByte(src[at:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += at + 1
		}
		t := bytes.TrimSpace(src[at:end])
		switch {
		case len(t) == 0 || t[0] == '#':
		case t[0] == '[':
			if top < 0 {
				top = at
			}
			at = len(src) // the first table: stop
			continue
		default:
			if top < 0 {
				top = at
			}
			afterKey = end
		}
		at = end
	}
	if top < 0 {
		top = len(src)
	}
	if afterKey < 0 {
		afterKey = top
	}
	out := [][]byte{ins(afterKey)}
	if top != afterKey {
		out = append(out, ins(top))
	}
	return out
}

// realPath is path with symlinks resolved, so that an atomic write
// replaces the link's target and not the link; a missing file is itself.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	fi, err := os.Lstat(abs)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return abs, nil
	}
	return filepath.EvalSymlinks(abs)
}
