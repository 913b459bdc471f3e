package eval

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// SubsetVault copies a reduced vault for a fast, fixed regression run: every
// note judged by queries plus an even spread of other notes, n files in all,
// into dst (created if missing), keeping vault-relative paths. The rule:
//
//  1. Candidates are the regular files under src whose name ends in ".md",
//     outside folders whose name starts with ".", sorted by vault-relative
//     path (forward slashes, byte order).
//  2. Every judged note that exists is kept (a missing one is an error).
//  3. The remaining budget r = n - judged is filled with every
//     (m/r)-th other candidate, m being their number (indices
//     floor(i*m/r) for i = 0..r-1), so distractors come from all parts of
//     the vault rather than from its alphabetical start.
//
// n <= 0, or n at least the number of candidates, copies every candidate.
// It returns the number of files copied. ctx is checked between files.
func SubsetVault(ctx context.Context, src, dst string, queries []VaultQuery, n int) (int, error) {
	var all []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != src && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".md") {
			rel, err := filepath.Rel(src, p)
			if err != nil {
				return err
			}
			all = append(all, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("subset vault: %w", err)
	}
	slices.Sort(all)

	judged := map[string]bool{}
	for _, q := range queries {
		js, err := judgments(q.Relevant)
		if err != nil {
			return 0, fmt.Errorf("subset vault: query %q: %w", q.ID, err)
		}
		for _, j := range js {
			judged[j.Path] = true
		}
	}
	keep := make([]string, 0, max(n, len(judged)))
	var others []string
	for _, p := range all {
		if judged[p] {
			keep = append(keep, p)
		} else {
			others = append(others, p)
		}
	}
	if len(keep) != len(judged) {
		for p := range judged {
			if _, found := slices.BinarySearch(all, p); !found {
				return 0, fmt.Errorf("subset vault: judged note %s is not a .md file of %s", p, src)
			}
		}
	}
	if r := n - len(keep); n > 0 && r < len(others) {
		if r > 0 {
			m := len(others)
			for i := range r {
				keep = append(keep, others[i*m/r])
			}
		}
	} else {
		keep = append(keep, others...)
	}

	for i, rel := range keep {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return 0, fmt.Errorf("subset vault: %w", err)
			}
		}
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(rel)))
		if err != nil {
			return 0, fmt.Errorf("subset vault: %w", err)
		}
		out := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return 0, fmt.Errorf("subset vault: %w", err)
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			return 0, fmt.Errorf("subset vault: %w", err)
		}
	}
	return len(keep), nil
}
