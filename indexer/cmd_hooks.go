package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/vaultctx/vaultctx/core/doctor"
	"github.com/vaultctx/vaultctx/core/settings"
	"github.com/vaultctx/vaultctx/install"
)

// hooksCmd is `vaultctx hooks install|uninstall|status`.
type hooksCmd struct {
	Install   hooksInstallCmd   `cmd:"" help:"Add our hooks to settings.json (merge, never replace)."`
	Uninstall hooksUninstallCmd `cmd:"" help:"Remove only our hooks from settings.json."`
	Status    hooksStatusCmd    `cmd:"" help:"Show which events are wired, and to which binaries."`
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

// hooksInstallCmd is `vaultctx hooks install`.
type hooksInstallCmd struct {
	hooksTarget `embed:""`
	BinDir      string `help:"Directory holding the vaultctx-* hook binaries (default: the directory of this vaultctx)." type:"path" placeholder:"DIR"`
}

// Run renders the hooks template for the bin directory and merges it into
// the settings file, printing what changed.
func (c *hooksInstallCmd) Run(g *globals) error {
	path, err := c.path()
	if err != nil {
		return err
	}
	dir, err := binDir(c.BinDir)
	if err != nil {
		return err
	}
	plan, err := settings.Render(install.SettingsTemplate, dir)
	if err != nil {
		return err
	}
	var missing []string
	for _, grp := range plan.Groups {
		p := filepath.Join(dir, grp.Handler.Binary)
		if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return usageError{fmt.Sprintf("hooks install: not found or not executable: %s; build them first (scripts/install.sh) or point --bin-dir at them",
			strings.Join(missing, ", "))}
	}
	res, err := settings.Install(g.Ctx, path, plan)
	if err != nil {
		return fmt.Errorf("hooks install: %w", err)
	}
	w := os.Stdout
	switch {
	case !res.Changed:
		fmt.Fprintf(w, "Hooks already wired in %s; nothing changed.\n", res.Path)
	case res.Created:
		fmt.Fprintf(w, "Created %s with the vaultctx hooks.\n", res.Path)
	default:
		fmt.Fprintf(w, "Wired the vaultctx hooks into %s (previous version: %s).\n", res.Path, res.Backup)
	}
	for _, grp := range plan.Groups {
		fmt.Fprintf(w, "  %-17s %s%s, timeout %gs\n", grp.Event, grp.Handler.Command, matcherNote(grp.Matcher), grp.Handler.Timeout)
	}
	return nil
}

// matcherNote renders a matcher for the listings.
func matcherNote(m string) string {
	if m == "" {
		return ""
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
	hooksTarget `embed:""`
}

// Run removes our entries from the settings file.
func (c *hooksUninstallCmd) Run(g *globals) error {
	path, err := c.path()
	if err != nil {
		return err
	}
	res, err := settings.Uninstall(g.Ctx, path)
	if err != nil {
		return fmt.Errorf("hooks uninstall: %w", err)
	}
	if !res.Changed {
		fmt.Fprintf(os.Stdout, "No vaultctx hooks in %s; nothing changed.\n", res.Path)
		return nil
	}
	fmt.Fprintf(os.Stdout, "Removed the vaultctx hooks from %s (previous version: %s).\n", res.Path, res.Backup)
	return nil
}

// hooksStatusCmd is `vaultctx hooks status`.
type hooksStatusCmd struct {
	hooksTarget `embed:""`
}

// Run prints, for each event we wire, the binary it runs (or that it is not
// wired), and how many other tools' hooks share the event.
func (c *hooksStatusCmd) Run(g *globals) error {
	path, err := c.path()
	if err != nil {
		return err
	}
	rep, err := settings.Status(g.Ctx, path)
	if err != nil {
		return fmt.Errorf("hooks status: %w", err)
	}
	wired, err := doctor.HookWiring(install.SettingsTemplate, rep.Entries)
	if err != nil {
		return err
	}
	writeWiring(os.Stdout, path, wired, rep.Entries)
	if rep.Disabled {
		fmt.Fprintf(os.Stdout, "  ✗ \"disableAllHooks\": true in this file: Claude Code runs no hooks; set it to false\n")
	}
	return nil
}

// writeWiring prints the status listing.
func writeWiring(w io.Writer, path string, wired []doctor.Wiring, entries []settings.Entry) {
	fmt.Fprintln(w, path)
	for _, x := range wired {
		others := 0
		for _, e := range entries {
			if e.Event == x.Event && !e.Ours {
				others++
			}
		}
		mark, what := "✓", strings.Join(x.Commands, ", ")
		if x.Problem != "" {
			mark = "✗"
			if what != "" {
				what += ": "
			}
			what += x.Problem
		}
		fmt.Fprintf(w, "  %s %-17s %s", mark, x.Event, what)
		if others > 0 {
			fmt.Fprintf(w, " (+%d other hook%s)", others, plural(others))
		}
		fmt.Fprintln(w)
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
