package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/doctor"
	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/install"
)

// hooksCmd is `vaultctx hooks install|uninstall|status`.
type hooksCmd struct {
	Install   hooksInstallCmd   `cmd:"" help:"Add our hooks to settings.json (merge, never replace)."`
	Uninstall hooksUninstallCmd `cmd:"" help:"Remove only our hooks from settings.json."`
	Status    hooksStatusCmd    `cmd:"" help:"Show, per hook, whether the config turns it on and what settings.json wires to it; exits 1 when any line is marked ✗ (broken, nothing wired, \"disableAllHooks\": true in settings.json, or a config that does not parse), as doctor does for a failed check. A hook off in the config is not a failure, all three included."`
}

// hooksTarget selects the settings file; every hooks subcommand has it.
type hooksTarget struct {
	Settings string `help:"Settings file to edit (default $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json)." type:"path" placeholder:"FILE"`
	Project  bool   `help:"Edit the project's .claude/settings.json in the current directory instead."`
}

// path returns the settings file the flags select.
func (t hooksTarget) path() (string, error) {
	switch {
	case t.Settings != "" && t.Project:
		return "", usageError{"--settings and --project both name a settings file: give one of them"}
	case t.Settings != "":
		return t.Settings, nil
	case t.Project:
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("project settings: %w", err)
		}
		return settings.ProjectPath(wd), nil
	default:
		return settings.UserPath(os.Getenv)
	}
}

// flags returns the flags that select the same settings file, to carry
// into advice the user types: " --settings FILE" (FILE quoted for sh),
// " --project", or "" for the default file.
func (t hooksTarget) flags() string {
	switch {
	case t.Settings != "":
		return " --settings " + settings.ShellQuote(t.Settings)
	case t.Project:
		return " --project"
	}
	return ""
}

// hooksInstallCmd is `vaultctx hooks install`.
type hooksInstallCmd struct {
	hooksTarget `embed:""`
	BinDir      string `help:"Directory holding the vaultctx-* hook binaries (default: the directory of this vaultctx)." type:"path" placeholder:"DIR"`
	Only        string `help:"Wire only these hooks, comma-separated: userprompt, pretooluse, posttooluse (or prompt, pretool, posttool); our entries for the others are taken out. A hook the config turns off (hooks.<name> = false) is never wired." placeholder:"LIST"`
}

// Run renders the hooks template for the bin directory and merges the
// hooks that --only selects (default all) and the config turns on into the
// settings file, taking out our entries for the others, and prints what
// changed.
func (c *hooksInstallCmd) Run(g *globals) error {
	path, err := c.path()
	if err != nil {
		return err
	}
	names := config.HookNames()
	if c.Only != "" {
		if names, err = settings.ParseHookNames(c.Only); err != nil {
			return usageError{"--only: " + err.Error()}
		}
	}
	cfg, err := loadConfig(g)
	if err != nil {
		return fmt.Errorf("hooks install: %w (it says which hooks are on; fix it first)", err)
	}
	dir, err := binDir(c.BinDir)
	if err != nil {
		return err
	}
	plan, err := settings.Render(install.SettingsTemplate, dir)
	if err != nil {
		return err
	}
	var on []string
	for _, n := range names {
		if cfg.Hooks.Enabled(n) {
			on = append(on, n)
		}
	}
	chosen := plan.Select(on)
	var missing []string
	for _, grp := range chosen.Groups {
		p := filepath.Join(dir, grp.Handler.Binary)
		if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return usageError{fmt.Sprintf("hooks install: not found or not executable: %s; build them first (%s) or point --bin-dir at them",
			strings.Join(missing, ", "), runInstaller(""))}
	}
	res, err := settings.Install(g.Ctx, path, chosen)
	if err != nil {
		return fmt.Errorf("hooks install: %w", err)
	}
	w := os.Stdout
	switch {
	case !res.Changed && len(chosen.Groups) == 0:
		fmt.Fprintf(w, "No hook to wire, and none of ours in %s; nothing changed.\n", res.Path)
	case !res.Changed:
		fmt.Fprintf(w, "Hooks already wired in %s; nothing changed.\n", res.Path)
	case res.Created:
		fmt.Fprintf(w, "Created %s with the vaultctx hooks.\n", res.Path)
	case len(chosen.Groups) == 0:
		fmt.Fprintf(w, "No hook to wire: took ours out of %s (previous version: %s).\n", res.Path, res.Backup)
	default:
		fmt.Fprintf(w, "Wired the vaultctx hooks into %s (previous version: %s).\n", res.Path, res.Backup)
	}
	inFile := wiredEntries(res.Path)
	for _, grp := range plan.Groups {
		name := settings.HookName(grp.Handler.Binary)
		switch {
		case !cfg.Hooks.Enabled(name): // the lasting reason first: a later install leaves it out too
			fmt.Fprintf(w, "  %-17s not wired: %s = false under [hooks] in %s\n", grp.Event, name, orDefault(cfg.File, configPath()))
		case !slices.Contains(names, name):
			fmt.Fprintf(w, "  %-17s not wired: not in --only\n", grp.Event)
		default:
			// What the file holds: a re-install keeps the user's matcher,
			// timeout and wrapper around our program.
			e, ok := inFile[grp.Event+"\x00"+grp.Handler.Binary]
			if !ok {
				e = settings.Entry{Command: grp.Handler.Command, Matcher: grp.Matcher, Timeout: grp.Handler.Timeout}
			}
			timeout := "Claude Code's default timeout"
			if e.Timeout > 0 {
				timeout = fmt.Sprintf("timeout %gs", e.Timeout)
			}
			fmt.Fprintf(w, "  %-17s %s%s, %s\n", grp.Event, e.Command, matcherNote(grp.Event, e.Matcher), timeout)
		}
	}
	return nil
}

// wiredEntries returns the first entry of ours for each event and binary
// (keyed "event\x00binary") in the settings file at path, none when it
// cannot be read or parsed.
func wiredEntries(path string) map[string]settings.Entry {
	out := map[string]settings.Entry{}
	src, err := os.ReadFile(path)
	if err != nil {
		return out
	}
	es, err := settings.Inspect(src)
	if err != nil {
		return out
	}
	for _, e := range es {
		if k := e.Event + "\x00" + e.Binary; e.Ours {
			if _, seen := out[k]; !seen {
				out[k] = e
			}
		}
	}
	return out
}

// matcherNote renders an event's matcher for the listings: Claude Code
// matches SessionStart on its source and SubagentStart on the agent type,
// the tool events on the tool name.
func matcherNote(event, m string) string {
	switch {
	case m == "":
		return ""
	case event == "SessionStart":
		return " (sources " + m + ")"
	case event == "SubagentStart":
		return " (agent types " + m + ")"
	}
	return " (tools " + m + ")"
}

// binDir returns the absolute bin directory: flag, else where this
// executable lives (symlinks resolved).
func binDir(flag string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find bin dir: %w (pass --bin-dir)", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Dir(exe), nil
}

// hooksUninstallCmd is `vaultctx hooks uninstall`.
type hooksUninstallCmd struct {
	hooksTarget   `embed:""`
	RemoveBackups bool `help:"Also delete the backups of settings.json that vaultctx made (settings.json.bak-<time>), this run's included."`
}

// Run removes our entries from the settings file, and with
// --remove-backups the backups vaultctx made of it.
func (c *hooksUninstallCmd) Run(g *globals) error {
	path, err := c.path()
	if err != nil {
		return err
	}
	res, err := settings.Uninstall(g.Ctx, path)
	if err != nil {
		return fmt.Errorf("hooks uninstall: %w", err)
	}
	switch {
	case !res.Changed:
		fmt.Fprintf(os.Stdout, "No vaultctx hooks in %s; nothing changed.\n", res.Path)
	case c.RemoveBackups:
		fmt.Fprintf(os.Stdout, "Removed the vaultctx hooks from %s.\n", res.Path)
	default:
		fmt.Fprintf(os.Stdout, "Removed the vaultctx hooks from %s (previous version: %s).\n", res.Path, res.Backup)
	}
	if c.RemoveBackups {
		removed, err := settings.PruneBackups(path, 0)
		for _, r := range removed {
			fmt.Fprintf(os.Stdout, "removed %s\n", r)
		}
		if err != nil {
			return fmt.Errorf("hooks uninstall: %w", err)
		}
	}
	return nil
}

// hooksStatusCmd is `vaultctx hooks status`.
type hooksStatusCmd struct {
	hooksTarget `embed:""`
}

// Run prints, for each event we wire, whether the config turns its hook
// on and what settings.json wires to it, how many other tools' hooks share
// the event, and the commands whose output passes through. Like doctor, it
// returns an error (exit 1) when any line it printed is marked ✗; a caveat
// (!) passes.
//
// With --project it reads the project's file, and for an event that file
// does not wire, the user settings and the project's
// .claude/settings.local.json too: Claude Code runs the hooks of all
// three, so a hook wired there is wired for the project.
func (c *hooksStatusCmd) Run(g *globals) error {
	path, err := c.path()
	if err != nil {
		return err
	}
	rep, err := settings.Status(g.Ctx, path)
	if err != nil {
		return fmt.Errorf("hooks status: %w", err)
	}
	cfg, cfgErr := loadConfig(g)
	wired, err := doctor.HookWiring(install.SettingsTemplate, rep.Entries, cfg.Hooks, os.Getenv)
	if err != nil {
		return err
	}
	rows := make([]wiringRow, len(wired))
	for i, x := range wired {
		rows[i] = wiringRow{Wiring: x}
	}
	if c.Project {
		var others []string
		if p, err := settings.UserPath(os.Getenv); err == nil {
			others = append(others, p)
		}
		others = append(others, filepath.Join(filepath.Dir(path), "settings.local.json"))
		for _, p := range others {
			orep, err := settings.Status(g.Ctx, p)
			if err != nil || orep.Disabled {
				continue
			}
			ow, err := doctor.HookWiring(install.SettingsTemplate, orep.Entries, cfg.Hooks, os.Getenv)
			if err != nil {
				return err
			}
			for i, x := range ow {
				switch {
				case len(x.Commands) == 0:
				case len(rows[i].Commands) == 0 && rows[i].in == "":
					rows[i] = wiringRow{Wiring: x, in: p}
				case !slices.Equal(rows[i].Commands, x.Commands):
					rows[i].also = append(rows[i].also, p)
				}
			}
		}
	}
	failed := writeWiring(os.Stdout, path, "vaultctx hooks install"+c.flags(), rows, rep.Entries)
	if rep.Disabled {
		fmt.Fprintf(os.Stdout, "  ✗ \"disableAllHooks\": true in this file: Claude Code runs no hooks; set it to false\n")
		failed++
	}
	if cfgErr != nil {
		fmt.Fprintf(os.Stdout, "  ✗ %v: every hook counted as on until it parses\n", cfgErr)
		failed++
	} else {
		writePassthrough(os.Stdout, orDefault(cfg.File, configPath()), cfg.Hooks)
	}
	if failed > 0 {
		return fmt.Errorf("hooks status: %d line%s marked ✗", failed, plural(failed))
	}
	return nil
}

// wiringRow is one line of the status listing: how an event is wired.
type wiringRow struct {
	doctor.Wiring
	in   string   // the other settings file that wires it (--project: the user or local settings), "" for the file shown
	also []string // other settings files that wire it too, with other commands: Claude Code runs each
}

// writeWiring prints the status listing of the settings file at path: one
// line per event, marked ✓ (on and wired), – (off and not wired), ! (on
// but not wired while other hooks are, off but still wired, wired by a
// path that only the hook's shell can resolve, or wired in a second file
// too) or ✗ (broken, such as a cd to a missing folder before our binary,
// or nothing wired), and returns how many it marked ✗. install is the
// command that wires the hooks into that file, for advice.
func writeWiring(w io.Writer, path, install string, wired []wiringRow, entries []settings.Entry) (failed int) {
	fmt.Fprintln(w, path)
	anyWired := slices.ContainsFunc(wired, func(x wiringRow) bool { return len(x.Commands) > 0 })
	for _, x := range wired {
		others := 0
		for _, e := range entries {
			if e.Event == x.Event && !e.Ours {
				others++
			}
		}
		cmds := strings.Join(x.Commands, ", ")
		if x.in != "" {
			cmds = "in " + x.in + ": " + cmds
		}
		var mark, what string
		switch x.State {
		case doctor.Wired:
			mark, what = "✓", "on, wired: "+cmds
			if x.Unchecked != "" {
				mark, what = "!", what+" ("+x.Unchecked+")"
			}
		case doctor.Off:
			mark, what = "–", fmt.Sprintf("off (hooks.%s = false), not wired", x.Name)
		case doctor.NotWired:
			mark, what = "!", "on, but not wired: `"+install+"` wires it"
			if !anyWired {
				mark = "✗"
			}
		case doctor.WiredOff:
			mark, what = "!", fmt.Sprintf("off (hooks.%s = false), but wired: %s answers nothing; `%s` takes it out", x.Name, cmds, install)
			if x.in != "" {
				what = fmt.Sprintf("off (hooks.%s = false), but wired %s: it answers nothing; `vaultctx hooks install --settings %s` takes it out", x.Name, cmds, settings.ShellQuote(x.in))
			}
		default:
			mark, what = "✗", x.Problem
			if cmds != "" {
				what = cmds + ": " + x.Problem
			}
			if x.Dir != "" {
				// A re-install keeps the cd: only the user can fix it.
				what += fmt.Sprintf("; fix: create %s, or take the cd out of the entry", x.Dir)
			}
		}
		for _, a := range x.also {
			if mark == "✓" {
				mark = "!"
			}
			what += "; wired in " + a + " as well: Claude Code runs both"
		}
		if mark == "✗" {
			failed++
		}
		fmt.Fprintf(w, "  %s %-17s %s", mark, x.Event, what)
		if others > 0 {
			fmt.Fprintf(w, " (+%d other hook%s)", others, plural(others))
		}
		fmt.Fprintln(w)
	}
	return failed
}

// writePassthrough prints the output_passthrough list of the config file.
func writePassthrough(w io.Writer, file string, h config.Hooks) {
	if len(h.OutputPassthrough) == 0 {
		fmt.Fprintf(w, "%s: no output_passthrough; every long Bash output may be condensed\n", file)
		return
	}
	q := make([]string, len(h.OutputPassthrough))
	for i, p := range h.OutputPassthrough {
		q[i] = fmt.Sprintf("%q", p)
	}
	fmt.Fprintf(w, "%s: output of commands starting with %s passes through untouched\n", file, strings.Join(q, ", "))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
