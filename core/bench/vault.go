package bench

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"

	"github.com/vaultctx/vaultctx/core/eval"
)

// titleQueries is the number of note titles timed when no reference set
// is given.
const titleQueries = 50

// benchQueries returns the query texts: the reference set's in file (if
// not ""), or the titles of up to 50 notes spread evenly over the sorted
// note list. It returns ErrNoNotes when there is neither.
func benchQueries(file, vault string, notes []string) ([]string, error) {
	if file != "" {
		qs, err := eval.ReadVaultQueries(file)
		if err != nil {
			return nil, err
		}
		out := make([]string, len(qs))
		for i, q := range qs {
			out[i] = q.Query
		}
		return out, nil
	}
	n := min(titleQueries, len(notes))
	var out []string
	for i := range n {
		p := notes[i*len(notes)/n]
		out = append(out, noteTitle(filepath.Join(vault, filepath.FromSlash(p))))
	}
	if len(out) == 0 {
		return nil, ErrNoNotes
	}
	return out, nil
}

// noteTitle returns the first H1 of a note, else its file name stem.
func noteTitle(path string) string {
	data, _ := os.ReadFile(path)
	for _, line := range strings.Split(string(data), "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok && strings.TrimSpace(t) != "" {
			return strings.TrimSpace(t)
		}
	}
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// bigOutput returns about 64 KiB of real text from the vault, a Bash output
// large enough for the PostToolUse hook to act on.
func bigOutput(vault string) string {
	var b strings.Builder
	filepath.WalkDir(vault, func(p string, d fs.DirEntry, err error) error {
		if err != nil || b.Len() > 64<<10 {
			return fs.SkipAll
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			data, _ := os.ReadFile(p)
			b.Write(data)
		}
		return nil
	})
	return b.String()
}

// copyVault copies the regular files of src (outside dot folders) to dst
// and returns the vault-relative paths of its .md notes, sorted.
func copyVault(ctx context.Context, src, dst string) ([]string, error) {
	var notes []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != src && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(d.Name(), ".md") {
			notes = append(notes, filepath.ToSlash(rel))
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		return nil, fmt.Errorf("copy vault: %w", err)
	}
	slices.Sort(notes)
	return notes, nil
}

// editNotes appends a line to n notes spread evenly over the sorted list.
func editNotes(vault string, notes []string, n int) error {
	for i := range n {
		p := filepath.Join(vault, filepath.FromSlash(notes[i*len(notes)/n]))
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("edit note: %w", err)
		}
		_, err = fmt.Fprintf(f, "\n\nvaultctx bench edit %d\n", i)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("edit note: %w", err)
		}
	}
	return nil
}

// peakRSS is this process's peak resident set size so far, in bytes.
func peakRSS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Maxrss * 1024 // Linux reports KiB
}

// machine describes the computer the bench ran on.
func machine() string {
	cpu := ""
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":")) + ", "
				break
			}
		}
	}
	return fmt.Sprintf("%s%d CPUs, %s/%s, %s", cpu, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
}
