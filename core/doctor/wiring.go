package doctor

import (
	"errors"
	"fmt"
	"os"

	"github.com/vaultctx/vaultctx/core/settings"
)

// Wiring is what one event of the hooks template is hooked to in a
// settings file.
type Wiring struct {
	Event    string   // e.g. "UserPromptSubmit"
	Binary   string   // the binary the template wires to Event
	Commands []string // our commands wired to Event, as written
	Problem  string   // "" when the event is wired once to an executable binary
}

// HookWiring checks entries (from settings.Status or settings.Inspect)
// against the events tmpl (the hooks template, install.SettingsTemplate)
// wires, one Wiring per template event in template order. It fails only
// when tmpl does not render.
func HookWiring(tmpl []byte, entries []settings.Entry) ([]Wiring, error) {
	plan, err := settings.Render(tmpl, "/")
	if err != nil {
		return nil, err
	}
	var out []Wiring
	for _, grp := range plan.Groups {
		w := Wiring{Event: grp.Event, Binary: grp.Handler.Binary}
		for _, e := range entries {
			if e.Event == grp.Event && e.Ours {
				w.Commands = append(w.Commands, e.Command)
				if e.Binary != grp.Handler.Binary {
					w.Problem = fmt.Sprintf("runs %s, want %s", e.Binary, grp.Handler.Binary)
				}
			}
		}
		switch {
		case len(w.Commands) == 0:
			w.Problem = "not wired"
		case len(w.Commands) > 1:
			w.Problem = fmt.Sprintf("wired %d times", len(w.Commands))
		case w.Problem == "":
			w.Problem = checkExecutable(w.Commands[0])
		}
		out = append(out, w)
	}
	return out, nil
}

// checkExecutable returns "" when command's program is an executable
// file, else what is wrong with it.
func checkExecutable(command string) string {
	prog := settings.Program(command)
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
