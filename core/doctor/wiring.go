package doctor

import (
	"errors"
	"fmt"
	"os"

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
}

// HookWiring checks entries (from settings.Status or settings.Inspect)
// against the events tmpl (the hooks template, install.SettingsTemplate)
// wires and the switches of h (the config's [hooks] table), one Wiring per
// template event in template order. It fails only when tmpl does not
// render.
func HookWiring(tmpl []byte, entries []settings.Entry, h config.Hooks) ([]Wiring, error) {
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
			w.Problem = checkExecutable(w.Commands[0])
			if w.Problem == "" {
				w.Problem, w.Dir = checkDirs(w.Commands[0])
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

// checkExecutable returns "" when the binary of ours that command runs
// (settings.OurProgram: behind any env prefix or wrapper) is an executable
// file, else what is wrong with it.
func checkExecutable(command string) string {
	prog := settings.OurProgram(command)
	fi, err := os.Stat(prog)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return prog + " does not exist"
	case err != nil:
		return err.Error()
	case fi.IsDir() || fi.Mode()&0o111 == 0:
		return prog + " is not executable"
	}
	return ""
}

// checkDirs returns "", "" when every folder that a leading cd of command
// (one of ours) changes to before our binary is a folder, as far as the
// command names it literally (settings.CdDirs); else what is wrong with
// the first that is not, and that folder. After `cd DIR &&` the hook then
// never runs: sh exits non-zero (dash, the usual /bin/sh, with 2, which
// Claude Code takes as a block: the prompt or tool call is stopped).
// After `cd DIR;` it runs in another folder, with an error on stderr.
func checkDirs(command string) (problem, dir string) {
	for _, d := range settings.CdDirs(command) {
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
		if d.And {
			return fmt.Sprintf("cd %s fails (%s), so the hook never runs: sh exits non-zero (dash: 2, which Claude Code takes as a block)", d.Path, what), d.Path
		}
		return fmt.Sprintf("cd %s fails (%s): the hook runs in another folder and sh prints an error every time", d.Path, what), d.Path
	}
	return "", ""
}
