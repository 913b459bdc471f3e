package posttool

import (
	"path"
	"strings"

	"github.com/vaultctx/vaultctx/core/hookio"
	"github.com/vaultctx/vaultctx/core/internal/shell"
)

// gate returns why the payload in must reach Claude unchanged before any
// other work: "hooks.posttooluse = false" when opts.Disabled, or
// "output_passthrough" and the prefix when the Bash command matches one of
// opts.Passthrough (see PassthroughPrefix); "" when Hook should go on.
func gate(in hookio.Input, opts Options) (why, prefix string) {
	if opts.Disabled {
		return "hooks.posttooluse = false", ""
	}
	if len(opts.Passthrough) == 0 {
		return "", ""
	}
	if p := PassthroughPrefix(in.ToolInput.Get("command").String(), opts.Passthrough); p != "" {
		return "output_passthrough", p
	}
	return "", ""
}

// wrappers are programs that run the command after them, and the shell's
// reserved words that open a command of a compound one (`if git diff`,
// `then git diff`, `do git diff $f`, `{ git diff; }`, `! git diff`); a
// prefix is also tried after each of them.
var wrappers = map[string]bool{"sudo": true, "env": true, "time": true, "nohup": true, "exec": true, "command": true,
	"if": true, "then": true, "else": true, "elif": true, "do": true, "while": true, "until": true, "{": true, "!": true}

// PassthroughPrefix returns the first of prefixes that command starts
// with, or "" when none does. command is a shell command line; it is split
// into its commands at |, &, ;, newlines, parentheses and backquotes outside
// quotes (so every stage of a pipeline and every command of a &&, ||, ; or
// & list counts, and a subshell's or substitution's commands too), and each
// command into words with quotes and backslashes removed and redirections
// (>out, 2>&1, < in) dropped. A prefix matches a command when its words
// (split the same way) equal the command's first words, where the
// command's program given as a path (/usr/bin/git) also matches by its base
// name, unless the prefix's own first word holds a slash. The comparison is
// tried at the start and again after each leading VAR=value assignment and
// each of the wrappers sudo, env, time, nohup, exec and command, so "git
// diff" matches `GIT_PAGER=cat git diff` and "sudo apt" matches `sudo apt
// install x`. Words are whole: "git diff" does not match `git difftool`.
// The split is a reader's approximation of sh(1): no expansion, aliases,
// functions or here documents.
func PassthroughPrefix(command string, prefixes []string) string {
	if command == "" || len(prefixes) == 0 {
		return ""
	}
	cmds := shell.Commands(command)
	for _, p := range prefixes {
		pw := shell.Commands(p)
		if len(pw) == 0 {
			continue
		}
		for _, words := range cmds {
			if startsWithPrefix(words, pw[0]) {
				return p
			}
		}
	}
	return ""
}

// startsWithPrefix reports whether words starts with prefix, at the start
// or after any run of leading assignments and wrappers.
func startsWithPrefix(words, prefix []string) bool {
	for i := 0; i <= len(words); i++ {
		if wordsStart(words[i:], prefix) {
			return true
		}
		if i == len(words) || !(isAssignment(words[i]) || wrappers[words[i]]) {
			return false
		}
	}
	return false
}

// wordsStart reports whether words begins with prefix; the first word also
// matches by its base name when prefix's first word names no path.
func wordsStart(words, prefix []string) bool {
	if len(prefix) == 0 || len(words) < len(prefix) {
		return false
	}
	for i, p := range prefix {
		w := words[i]
		if i == 0 && !strings.Contains(p, "/") {
			w = path.Base(w)
		}
		if w != p {
			return false
		}
	}
	return true
}

// isAssignment reports whether w is a NAME=value word.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
