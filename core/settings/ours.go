package settings

import (
	"runtime"
	"slices"
	"strings"
)

// hookEvents lists, for each of Binaries, the events the install template
// (install/settings.json.tmpl) wires it to. It is the union over every
// version of the template (git log -p -- install/settings.json.tmpl): the
// prompt hook on UserPromptSubmit from the first, SessionStart and
// SubagentStart since bfca47b; the other two on their own event. No
// version wired any other event, nor the vaultctx CLI itself, so an entry
// running one of our binaries on Stop or Notification is one the user
// wrote. Render refuses a template that wires a binary to an event missing
// here, so the two cannot drift apart.
var hookEvents = map[string][]string{
	UserPromptBinary:  {"UserPromptSubmit", "SessionStart", "SubagentStart"},
	PreToolUseBinary:  {"PreToolUse"},
	PostToolUseBinary: {"PostToolUse"},
}

// Ours reports whether a hook entry on event running command is one of
// ours, and for which binary. It is when the program command runs is one
// of Binaries by its exact base name (any folder, quotes and escapes
// removed, and on Windows a ".exe" suffix dropped) and event is one the install template
// wires that binary to (hookEvents).
//
// The program is read as sh reads the first command of the line: after
// any leading `cd DIR &&` or `cd DIR;` (see firstCommand), NAME=value
// assignments, and the wrappers of the wrappers table (env, exec, command,
// nice, nohup, time, timeout, flock, ionice, stdbuf, setsid) with their
// options, or inside the command string of a shell (`sh -c '...'`,
// `bash -lc "..."`, `flock FILE -c '...'`), one level deep. So
// `cd /p && VAULTCTX_LOG=/tmp/l nice -n 5 /x/vaultctx-userprompt` is ours on
// UserPromptSubmit, while these are the user's: a later command
// (`make && /x/vaultctx-userprompt`), an argument of another program
// (`echo /x/vaultctx-userprompt`, `rm -f /x/vaultctx-userprompt`,
// `tool --exec=/x/vaultctx-userprompt`), a cd's folder, another name
// (`/x/vaultctx-notify`, `/x/vaultctx-userprompt.sh`, `vaultctx index`),
// and our binary on an event we never wire.
//
// binary is the binary's name for an entry of ours, else the base name of
// Program. Entries are recognised this way, not by their full path, so a
// re-install from another bin directory updates them in place.
func Ours(event, command string) (binary string, ok bool) {
	if w, _, ok := ourWord(command); ok {
		if b := baseName(w.text); slices.Contains(hookEvents[b], event) {
			return b, true
		}
	}
	return baseName(Program(command)), false
}

// OurProgram returns the path of the hook binary a command line runs, as
// sh reads it (see Ours): "/x/vaultctx-userprompt" for
// `VAULTCTX_LOG=/tmp/l nice /x/vaultctx-userprompt`. It is Program for a
// command that runs none of Binaries.
func OurProgram(command string) string {
	if w, _, ok := ourWord(command); ok {
		return w.text
	}
	return Program(command)
}

// CdDir is a folder a hook command line changes to before it runs our
// binary (see CdDirs).
type CdDir struct {
	Path string // an absolute path, as sh reads it (quotes removed, ~ and $HOME expanded)
	// And is set for a cd followed by &&: when it fails, our binary does
	// not run and sh exits non-zero (dash: 2). After `cd DIR;` it runs
	// anyway, in the folder the hook was started in.
	And bool
	// Env is set for the folder of env's -C (--chdir) option: when env
	// cannot change to it, it runs nothing and exits 125. And is set too.
	Env bool
}

// CdDirs returns the folders that command changes to before it runs one
// of Binaries (see Ours), outer ones first: those of its leading cds and
// of env's -C DIR (--chdir=DIR) in front of our binary, when they name a
// folder that can be known before the hook runs: an absolute path once a
// leading ~ (alone or before /) and $HOME or ${HOME} are expanded from
// getenv("HOME") as sh expands them (see ExpandPath), quotes removed. What
// the others name is known only when Claude Code runs the hook
// ($CLAUDE_PROJECT_DIR, a path relative to the project, ~user, a glob), a
// bare `cd` goes home and `cd -` back. It returns none for a command that
// runs none of Binaries.
func CdDirs(command string, getenv func(string) string) []CdDir {
	_, cds, ok := ourWord(command)
	if !ok {
		return nil
	}
	home := getenv("HOME")
	var out []CdDir
	for _, cd := range cds {
		args := cd.args
		for len(args) > 0 && len(args[0].text) > 1 && args[0].text[0] == '-' && strings.Trim(args[0].text[1:], "LPe@") == "" {
			args = args[1:] // -L, -P, -e, -@ (bash), and clusters of them
		}
		if len(args) > 0 && args[0].text == "--" && !cd.env {
			args = args[1:]
		}
		if len(args) == 0 {
			continue
		}
		p, ok := args[0].expand(home)
		if !ok || !strings.HasPrefix(p, "/") {
			continue
		}
		out = append(out, CdDir{Path: p, And: cd.and, Env: cd.env})
	}
	return out
}

// ExpandPath returns the path the program word of command (one of ours,
// see OurProgram) names once sh has expanded a leading ~ (alone or before
// /) and $HOME or ${HOME} (see shellWord.expand), getenv("HOME") giving
// HOME: "/home/u/.local/bin/vaultctx-userprompt" for
// `"$HOME/.local/bin/vaultctx-userprompt"` or
// `~/.local/bin/vaultctx-userprompt`. A bare name comes back as it is, to
// be looked up on PATH (exec.LookPath). ok is false when the word holds
// an expansion known only when the hook runs ($CLAUDE_PROJECT_DIR, any
// other variable, `...`, $(...), ~user, a glob), or needs HOME while it is
// empty.
func ExpandPath(command string, getenv func(string) string) (path string, ok bool) {
	if w, _, ok := ourWord(command); ok {
		return w.expand(getenv("HOME"))
	}
	w, _ := firstCommand(command)
	if i := programIndex(w); i >= 0 {
		return w[i].expand(getenv("HOME"))
	}
	return "", false
}

// expand returns the text sh makes of w when the only expansions it holds
// are a leading unquoted ~ (alone or before an unquoted /) and $HOME or
// ${HOME} outside single quotes, both replaced by home. ok is false for
// any other expansion: another variable, ${...}, $(...), `...`, ~user, an
// unquoted glob character (*, ?, [); for one of ours while home is empty;
// and for an unquoted $HOME when home holds a blank or glob character,
// which sh would split or match.
func (w shellWord) expand(home string) (string, bool) {
	plain := func(i int) bool { return w.quote[i] == '\'' || w.esc[i] }
	var b strings.Builder
	i := 0
	if len(w.text) > 0 && w.text[0] == '~' && !plain(0) && w.quote[0] == 0 {
		if len(w.text) > 1 && (w.text[1] != '/' || w.quote[1] != 0 || w.esc[1]) {
			return "", false // ~user, or a quote in the tilde prefix
		}
		if home == "" {
			return "", false
		}
		b.WriteString(home)
		i = 1
	}
	for ; i < len(w.text); i++ {
		c := w.text[i]
		switch {
		case plain(i):
			b.WriteByte(c)
		case c == '$':
			n := w.homeRef(i)
			if n == 0 || home == "" || w.quote[i] == 0 && strings.ContainsAny(home, " \t\n*?[") {
				return "", false
			}
			b.WriteString(home)
			i += n - 1
		case c == '`' || w.quote[i] == 0 && strings.IndexByte("*?[", c) >= 0:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// homeRef returns the length of the $HOME (5) or ${HOME} (7) that starts
// at byte i of w, written in one piece (one quoting, no escape, bytes
// adjacent in the command line), else 0. $HOME followed in that piece by a
// name character is another variable ($HOMEDIR).
func (w shellWord) homeRef(i int) int {
	piece := func(n int) bool {
		if i+n > len(w.text) {
			return false
		}
		for j := i + 1; j < i+n; j++ {
			if w.quote[j] != w.quote[i] || w.esc[j] || w.raw != nil && w.raw[j] != w.raw[i]+j-i {
				return false
			}
		}
		return true
	}
	switch {
	case strings.HasPrefix(w.text[i:], "${HOME}") && piece(7):
		return 7
	case strings.HasPrefix(w.text[i:], "$HOME") && piece(5):
		if piece(6) && isName("H"+w.text[i+5:i+6]) {
			return 0
		}
		return 5
	}
	return 0
}

// from returns the part of w from byte k of its text on.
func (w shellWord) from(k int) shellWord {
	out := w
	out.text, out.quote, out.esc = w.text[k:], w.quote[k:], w.esc[k:]
	if w.raw != nil {
		out.raw = w.raw[k:]
	}
	out.assignment = false
	return out
}

// baseName returns the last path element of word, without a ".exe"
// suffix (any case) where exeNames holds; both / and \ separate.
func baseName(word string) string {
	if i := strings.LastIndexAny(word, `/\`); i >= 0 {
		word = word[i+1:]
	}
	if n := len(word) - len(".exe"); exeNames && n > 0 && strings.EqualFold(word[n:], ".exe") {
		word = word[:n]
	}
	return word
}

// exeNames says whether programs carry a ".exe" suffix their hook entries
// may name: on Windows, where our binaries are vaultctx-userprompt.exe and
// so on. Elsewhere a name ending in ".exe" is another program's (a user's
// /opt/tools/vaultctx-userprompt.exe is not ours).
var exeNames = runtime.GOOS == "windows"

// ourWord returns the word of command that runs one of Binaries (see
// Ours), with its bytes in command and, for a word inside a shell's
// command string, the quoting it sits in (see shellWord.inner); and the
// leading cds sh runs before it, outer ones first.
func ourWord(command string) (shellWord, []cdCommand, bool) {
	return findOurs(command, true)
}

// findOurs is ourWord on s; nest allows a shell's command string.
func findOurs(s string, nest bool) (shellWord, []cdCommand, bool) {
	words, cds := firstCommand(s)
	i := 0
	for i < len(words) && words[i].assignment {
		i++
	}
	for i < len(words) {
		name := baseName(words[i].text)
		if slices.Contains(Binaries, name) {
			return words[i], cds, true
		}
		wr, ok := wrappers[name]
		if !ok {
			break
		}
		at, str, dirs, ok := wr.command(words, i+1)
		for _, d := range dirs {
			cds = append(cds, cdCommand{args: []shellWord{d}, and: true, env: true})
		}
		switch {
		case !ok:
		case !str:
			i = at
			continue
		case nest:
			if in, inCds, ok := findOurs(words[at].text, false); ok {
				return words[at].inner(in), append(cds, inCds...), true
			}
		}
		break
	}
	return shellWord{}, nil, false
}

// wrapper is how a program that runs another command (a wrapper) reads
// its arguments: options first, then NAME=value words (env), then a fixed
// number of operands, then the command, as a program and its arguments or
// as a command string for sh.
type wrapper struct {
	args     string   // one-letter options that take an argument: the rest of their word, or the next word
	long     []string // --long options that take the next word as their argument, unless written --name=value
	noRun    string   // one-letter options with which it runs no command (command -v)
	assign   bool     // NAME=value words may come before the command (env)
	operands int      // words between the options and the command (timeout's duration, flock's file)
	strFlag  []string // words after the operands that make the next word a command string for sh (flock -c)
	// shell is set for a shell: with -c, alone or in a cluster such as
	// -lc, its first operand is a command string; without, a script.
	shell bool
	// chdir is the one-letter option, also spelt --chdir, whose argument
	// is the folder the command runs in (env -C DIR); 0 for none.
	chdir byte
}

// shell is the wrapper entry of sh and its kin.
var shell = wrapper{args: "oO", long: []string{"rcfile", "init-file"}, shell: true}

// wrappers are the programs Ours looks through, by base name: each runs
// the command its later words give with the same stdin and stdout, as a
// hook needs. Other programs' arguments are never ours.
var wrappers = map[string]wrapper{
	"env":     {args: "uCS", long: []string{"unset", "chdir", "split-string"}, assign: true, chdir: 'C'},
	"exec":    {args: "a"},
	"command": {noRun: "vV"},
	"nice":    {args: "n", long: []string{"adjustment"}},
	"nohup":   {},
	"time":    {args: "fo", long: []string{"format", "output"}},
	"timeout": {args: "sk", long: []string{"signal", "kill-after"}, operands: 1},
	"flock":   {args: "wE", long: []string{"timeout", "conflict-exit-code"}, operands: 1, strFlag: []string{"-c", "--command"}},
	"ionice":  {args: "cnpPu", long: []string{"class", "classdata", "pid", "pgid", "uid"}},
	"stdbuf":  {args: "ioe", long: []string{"input", "output", "error"}},
	"setsid":  {},
	"sh":      shell, "bash": shell, "dash": shell, "zsh": shell, "ksh": shell, "ash": shell,
}

// command reads the arguments of a wrapper that start at words[i] and
// returns the index of the word it runs: a program (str false) or a
// command string for sh (str true), and the arguments of its chdir option,
// in order; ok is false when it runs none that the line shows.
func (wr wrapper) command(words []shellWord, i int) (at int, str bool, dirs []shellWord, ok bool) {
	c := false
	for i < len(words) {
		t := words[i].text
		if t == "--" {
			i++
			break
		}
		if len(t) < 2 || !(t[0] == '-' || wr.shell && t[0] == '+') {
			break
		}
		i++
		if strings.HasPrefix(t, "--") {
			name, _, val := strings.Cut(t[2:], "=")
			switch {
			case wr.chdir != 0 && name == "chdir" && val:
				dirs = append(dirs, words[i-1].from(len("--chdir=")))
			case wr.chdir != 0 && name == "chdir" && i < len(words):
				dirs = append(dirs, words[i])
			}
			if !val && slices.Contains(wr.long, name) {
				i++
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			switch {
			case strings.IndexByte(wr.noRun, t[j]) >= 0:
				return 0, false, nil, false
			case wr.shell && t[0] == '-' && t[j] == 'c':
				c = true
			case strings.IndexByte(wr.args, t[j]) >= 0:
				switch {
				case j < len(t)-1 && t[j] == wr.chdir:
					dirs = append(dirs, words[i-1].from(j+1))
				case t[j] == wr.chdir && i < len(words):
					dirs = append(dirs, words[i])
				}
				if j == len(t)-1 {
					i++ // the argument is the next word
				}
				j = len(t) // else the rest of this one
			}
		}
	}
	if wr.assign {
		for i < len(words) && words[i].assignment {
			i++
		}
	}
	i += wr.operands
	switch {
	case i >= len(words):
		return 0, false, nil, false
	case wr.shell:
		return i, true, dirs, c
	case slices.Contains(wr.strFlag, words[i].text):
		return i + 1, true, dirs, i+1 < len(words)
	}
	return i, false, dirs, true
}
