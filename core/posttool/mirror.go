package posttool

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/vaultctx/vaultctx/core/internal/shell"
)

// Mirror check: an output that reproduces a file the command names is the
// file's content (compress.Request.MirrorsFile), however the command
// printed it. compress decides by the command and the output's shape; a
// program that reads a file its own way (python3 -c "print(open(f).read())",
// node -e "…readFileSync(f)…", perl -pe, grep -v '^$' f) can only be told
// by comparing the output with the file.

const (
	// mirrorMaxFiles is how many named files are compared at most.
	mirrorMaxFiles = 4
	// mirrorMaxBytes is the largest file read for the comparison.
	mirrorMaxBytes = 4 << 20
	// mirrorMinLines is the fewest non-blank output lines worth a check.
	mirrorMinLines = 20
	// mirrorShare is the share (percent) of the output's non-blank lines
	// that must be lines of one named file.
	mirrorShare = 90
)

// pathLike finds the file-name-like runs inside a word ("open('core/x.go')"
// holds core/x.go): characters of paths, with a dot and an extension or a
// slash.
var pathLike = regexp.MustCompile(`[\w~./+-]*[\w]\.[A-Za-z0-9]{1,8}\b|[\w~.+-]*/[\w./+-]+`)

// MirrorsNamedFile reports whether at least mirrorShare percent of the
// non-blank lines of stdout (mirrorMinLines or more) are lines of one
// regular file of at most mirrorMaxBytes that command names, a path
// resolved against cwd; the files tee writes and redirection targets
// (shell.Commands drops them) do not count, since they hold the output by
// construction. It reads at most mirrorMaxFiles files and never fails: an
// unreadable or missing file is not a mirror. A log so printed stays a
// log (compress reads its shape).
func MirrorsNamedFile(cwd, command, stdout string) bool {
	out := nonBlankLines(stdout)
	if len(out) < mirrorMinLines {
		return false
	}
	seen := map[string]bool{}
	tried := 0
	for _, words := range shell.Commands(command) {
		if filepath.Base(words[0]) == "tee" {
			continue // the files tee writes hold the output by construction
		}
		for _, w := range words {
			for _, p := range pathLike.FindAllString(w, -1) {
				if strings.HasPrefix(p, "~/") {
					if home, err := os.UserHomeDir(); err == nil {
						p = filepath.Join(home, p[2:])
					}
				}
				if !filepath.IsAbs(p) {
					if cwd == "" {
						continue
					}
					p = filepath.Join(cwd, p)
				}
				if seen[p] || tried >= mirrorMaxFiles {
					continue
				}
				seen[p] = true
				if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() || fi.Size() > mirrorMaxBytes || fi.Size() == 0 {
					continue
				}
				tried++
				if mirrors(p, out) {
					return true
				}
			}
		}
	}
	return false
}

// mirrors reports whether mirrorShare percent of lines are lines of the
// file at path.
func mirrors(path string, lines []string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	set := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), mirrorMaxBytes)
	for sc.Scan() {
		set[strings.TrimRight(sc.Text(), "\r")] = true
	}
	if sc.Err() != nil {
		return false
	}
	hit := 0
	for _, l := range lines {
		if set[l] {
			hit++
		}
	}
	return hit*100 >= len(lines)*mirrorShare
}

// nonBlankLines returns the lines of s that hold more than whitespace,
// without a trailing "\r".
func nonBlankLines(s string) []string {
	var out []string
	for l := range strings.SplitSeq(s, "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}
