package doctor

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/settings"
)

// WiringState is how one hook stands between settings.json and the
// config's switch (hooks.<name>).
type WiringState int

const (
	// Wired: on in the config and wired once to an executable binary.
	Wired WiringState = iota
	// Off: off in the config and not wired, as it should be.
	Off
	// NotWired: on in the config but not wired in settings.json.
	NotWired
	// WiredOff: off in the config but still wired: it runs and answers
	// nothing.
	WiredOff
	// Broken: wired more than once, to a file that is missing or not
	// executable, or behind a cd to a folder that is not there;
	// Wiring.Problem says which.
	Broken
)

// Wiring is what one event of the hooks template is hooked to in a
// settings file, and whether the config turns its hook on.
type Wiring struct {
	Event    string      // e.g. "UserPromptSubmit"
	Binary   string      // the binary the template wires to Event
	Name     string      // the hook's short name (settings.HookName): its config switch and --only name
	Commands []string    // our commands wired to Event, as written
	Enabled  bool        // the config turns the hook on (hooks.<Name>, on unless false)
	State    WiringState // how wiring and switch agree
	Problem  string      // for NotWired, WiredOff and Broken: what is wrong, one phrase; else ""
	// Dir is set for Broken when a leading cd of the command changes to
	// a folder that does not exist or is no folder (settings.CdDirs): the
	// folder, whose cd the user must fix; re-installing keeps it.
	Dir string
	// Unchecked is set for Wired when the path of our binary in the
	// command holds an expansion known only when the hook runs (such as
	// $CLAUDE_PROJECT_DIR): what could not be checked, one phrase. The
	// hook may well work; it is not called broken.
	Unchecked string
}

// HookWiring checks entries (from settings.Status or settings.Inspect)
// against the events tmpl (the hooks template, install.SettingsTemplate)
// wires and the switches of h (the config's [hooks] table), one Wiring per
// template event in template order. The binary and the folders of leading
// cds are looked for as sh would find them, getenv giving HOME (for a
// leading ~ and $HOME) and PATH (for a bare name). It fails only when
// tmpl does not render.
func HookWiring(tmpl []byte, entries []settings.Entry, h config.Hooks, getenv func(string) string) ([]Wiring, error) {
	plan, err := settings.Render(tmpl, "/")
	if err != nil {
		return nil, err
	}
	var out []Wiring
	for _, grp := range plan.Groups {
		name := settings.HookName(grp.Handler.Binary)
		w := Wiring{Event: grp.Event, Binary: grp.Handler.Binary, Name: name, Enabled: h.Enabled(name)}
		for _, e := range entries {
			// An entry of ours on an event runs the binary the template
			// wires there (settings.Ours).
			if e.Event == grp.Event && e.Ours {
				w.Commands = append(w.Commands, e.Command)
			}
		}
		switch {
		case len(w.Commands) == 0 && w.Enabled:
			w.State, w.Problem = NotWired, "not wired"
		case len(w.Commands) == 0:
			w.State = Off
		case len(w.Commands) > 1:
			w.State, w.Problem = Broken, fmt.Sprintf("wired %d times", len(w.Commands))
		default:
			w.Problem, w.Unchecked = checkExecutable(w.Commands[0], getenv)
			if w.Problem == "" {
				w.Problem, w.Dir = checkDirs(w.Commands[0], getenv)
			}
		}
		switch {
		case len(w.Commands) == 0:
		case w.Problem != "" && w.State == Wired:
			w.State = Broken
		case !w.Enabled && w.State == Wired:
			w.State, w.Problem = WiredOff, fmt.Sprintf("wired, but hooks.%s = false: it answers nothing", name)
		}
		out = append(out, w)
	}
	return out, nil
}

// checkExecutable returns "", "" when the binary of ours that command
// runs (settings.OurProgram: behind any env prefix or wrapper) is an
// executable file, found as sh finds it (settings.ExpandPath: a leading ~
// and $HOME expanded from getenv("HOME"), a bare name looked up on
// getenv("PATH")), else what is wrong with it as problem. When its path
// holds another expansion, which only the hook's own shell can evaluate,
// problem is "" and unchecked says so.
func checkExecutable(command string, getenv func(string) string) (problem, unchecked string) {
	prog, ok := settings.ExpandPath(command, getenv)
	if !ok {
		return "", "not checked: " + settings.OurProgram(command) + " holds an expansion known only when the hook runs"
	}
	if !strings.ContainsRune(prog, '/') {
		if _, err := lookPath(prog, getenv("PATH")); err != nil {
			return prog + " is not on PATH", ""
		}
		return "", ""
	}
	fi, err := os.Stat(prog)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return prog + " does not exist", ""
	case err != nil:
		return err.Error(), ""
	case fi.IsDir() || fi.Mode()&0o111 == 0:
		return prog + " is not executable", ""
	}
	return "", ""
}

// okExecutable reports whether checkExecutable finds the binary of
// command and finds nothing wrong with it.
func okExecutable(command string, getenv func(string) string) bool {
	p, u := checkExecutable(command, getenv)
	return p == "" && u == ""
}

// lookPath is exec.LookPath with path as PATH: the first executable
// regular file named name in its folders, an empty entry meaning the
// current folder.
func lookPath(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// checkDirs returns "", "" when every folder that a leading cd (or env
// -C) of command (one of ours) changes to before our binary is a folder,
// as far as it can be known before the hook runs (settings.CdDirs, getenv
// giving HOME); else what is wrong with
// the first that is not, and that folder. After `cd DIR &&` the hook then
// never runs: sh exits non-zero (dash, the usual /bin/sh, with 2, which
// Claude Code takes as a block: the prompt or tool call is stopped).
// After `cd DIR;` it runs in another folder, with an error on stderr.
func checkDirs(command string, getenv func(string) string) (problem, dir string) {
	for _, d := range settings.CdDirs(command, getenv) {
		fi, err := os.Stat(d.Path)
		var what string
		switch {
		case errors.Is(err, os.ErrNotExist):
			what = "no such folder"
		case err != nil:
			what = err.Error()
		case !fi.IsDir():
			what = "not a folder"
		default:
			continue
		}
		if d.Env {
			return fmt.Sprintf("env -C %s fails (%s), so the hook never runs: env exits 125", d.Path, what), d.Path
		}
		if d.And {
			return fmt.Sprintf("cd %s fails (%s), so the hook never runs: sh exits non-zero (dash: 2, which Claude Code takes as a block)", d.Path, what), d.Path
		}
		return fmt.Sprintf("cd %s fails (%s): the hook runs in another folder and sh prints an error every time", d.Path, what), d.Path
	}
	return "", ""
}
