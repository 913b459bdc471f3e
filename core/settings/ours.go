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
	Path string // an absolute path, as sh reads it (quotes removed)
	// And is set for a cd followed by &&: when it fails, our binary does
	// not run and sh exits non-zero (dash: 2). After `cd DIR;` it runs
	// anyway, in the folder the hook was started in.
	And bool
}

// CdDirs returns the folders the leading cds of a command line change to
// before it runs one of Binaries (see Ours), outer ones first, when they
// name a folder as written: an absolute path without expansions ($VAR,
// `...`, a leading ~, a glob), quotes removed. What the others name is
// known only when Claude Code runs the hook ($CLAUDE_PROJECT_DIR, a path
// relative to the project), a bare `cd` goes home and `cd -` back. It
// returns none for a command that runs none of Binaries.
func CdDirs(command string) []CdDir {
	_, cds, ok := ourWord(command)
	if !ok {
		return nil
	}
	var out []CdDir
	for _, cd := range cds {
		args := cd.args
		for len(args) > 0 && len(args[0].text) > 1 && args[0].text[0] == '-' && strings.Trim(args[0].text[1:], "LPe@") == "" {
			args = args[1:] // -L, -P, -e, -@ (bash), and clusters of them
		}
		if len(args) > 0 && args[0].text == "--" {
			args = args[1:]
		}
		if len(args) == 0 || !strings.HasPrefix(args[0].text, "/") || !args[0].literal() {
			continue
		}
		out = append(out, CdDir{Path: args[0].text, And: cd.and})
	}
	return out
}

// literal reports whether sh reads w as its text, with no expansion: no $
// or ` outside single quotes, and no glob character or leading ~ outside
// quotes.
func (w shellWord) literal() bool {
	for i := 0; i < len(w.text); i++ {
		c, q := w.text[i], w.quote[i]
		switch {
		case (c == '$' || c == '`') && q != '\'':
			return false
		case q == 0 && (strings.IndexByte("*?[", c) >= 0 || i == 0 && c == '~'):
			return false
		}
	}
	return true
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
		at, str, ok := wr.command(words, i+1)
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
}

// shell is the wrapper entry of sh and its kin.
var shell = wrapper{args: "oO", long: []string{"rcfile", "init-file"}, shell: true}

// wrappers are the programs Ours looks through, by base name: each runs
// the command its later words give with the same stdin and stdout, as a
// hook needs. Other programs' arguments are never ours.
var wrappers = map[string]wrapper{
	"env":     {args: "uCS", long: []string{"unset", "chdir", "split-string"}, assign: true},
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
// command string for sh (str true); ok is false when it runs none that the
// line shows.
func (wr wrapper) command(words []shellWord, i int) (at int, str, ok bool) {
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
			if name, _, val := strings.Cut(t[2:], "="); !val && slices.Contains(wr.long, name) {
				i++
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			switch {
			case strings.IndexByte(wr.noRun, t[j]) >= 0:
				return 0, false, false
			case wr.shell && t[0] == '-' && t[j] == 'c':
				c = true
			case strings.IndexByte(wr.args, t[j]) >= 0:
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
		return 0, false, false
	case wr.shell:
		return i, true, c
	case slices.Contains(wr.strFlag, words[i].text):
		return i + 1, true, i+1 < len(words)
	}
	return i, false, true
}
