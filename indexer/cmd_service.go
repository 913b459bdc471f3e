package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/vaultctx/vaultctx/core/service"
	"github.com/vaultctx/vaultctx/core/settings"
)

// serviceCmd is `vaultctx service install|uninstall`.
type serviceCmd struct {
	Install   serviceInstallCmd   `cmd:"" help:"Run vaultctx watch as a user service: a systemd user unit on Linux, a launchd agent on macOS."`
	Uninstall serviceUninstallCmd `cmd:"" help:"Stop the service and remove its file."`
}

// serviceFlags are the flags both subcommands take.
type serviceFlags struct {
	Vault  string `help:"Vault root directory (default: vault in the config)." type:"path" placeholder:"DIR"`
	DB     string `help:"Index file (default: as for index)." type:"path" placeholder:"FILE"`
	Model  string `help:"Embedding model directory (default: model in the config, else the one the index records)." type:"path" placeholder:"DIR"`
	DryRun bool   `help:"Print the service file and the commands, and change nothing."`
}

// plan makes the service plan from the config and the flags. Uninstall
// needs no vault (only the file's path and the stop commands).
func (f serviceFlags) plan(g *globals, needVault bool) (service.Plan, error) {
	cfg, err := loadConfig(g)
	if err != nil {
		return service.Plan{}, err
	}
	vault := orDefault(f.Vault, cfg.Vault)
	if vault == "" && !needVault {
		vault = "/"
	}
	if vault == "" {
		return service.Plan{}, usageError{"no vault to watch: pass --vault DIR, or set vault = \"...\" in " + configHint(g)}
	}
	dir, err := binDir("")
	if err != nil {
		return service.Plan{}, err
	}
	return service.Make(service.Options{
		GOOS: runtime.GOOS, Getenv: os.Getenv, Binary: filepath.Join(dir, "vaultctx"), UID: os.Getuid(),
		Vault: vault, DB: orDefault(f.DB, cfg.DB), Model: orDefault(f.Model, cfg.Model), Config: cfg.File,
	})
}

// printCommands prints cmds as shell lines.
func printCommands(cmds [][]string) {
	for _, c := range cmds {
		q := make([]string, len(c))
		for i, w := range c {
			q[i] = settings.ShellQuote(w)
		}
		fmt.Println("  " + strings.Join(q, " "))
	}
}

// serviceInstallCmd is `vaultctx service install`.
type serviceInstallCmd struct {
	serviceFlags `embed:""`
	NoStart      bool `help:"Write the file but do not load or start the service."`
}

// Run writes the unit or agent and starts it.
func (c *serviceInstallCmd) Run(g *globals) error {
	p, err := c.plan(g, true)
	if err != nil {
		return err
	}
	if c.DryRun {
		fmt.Printf("# %s (not written: --dry-run)\n%s", p.Path, p.Content)
		fmt.Println("# then:")
		printCommands(p.Start)
		return nil
	}
	if err := service.Install(p); err != nil {
		return err
	}
	fmt.Printf("wrote %s\n", p.Path)
	if c.NoStart {
		fmt.Println("not started (--no-start); start it with:")
		printCommands(p.Start)
		return nil
	}
	if err := service.Activate(g.Ctx, p.Start); err != nil {
		return fmt.Errorf("the %s file is written but starting it failed: %w; start it by hand once the manager runs", p.Manager, err)
	}
	fmt.Printf("started: vaultctx watch now follows the vault (%s)\n", p.Manager)
	return nil
}

// serviceUninstallCmd is `vaultctx service uninstall`.
type serviceUninstallCmd struct {
	serviceFlags `embed:""`
}

// Run stops the service and removes its file. A service that is not
// running (or a manager that is not there) does not keep the file.
func (c *serviceUninstallCmd) Run(g *globals) error {
	p, err := c.plan(g, false)
	if err != nil {
		return err
	}
	if c.DryRun {
		fmt.Printf("# would stop the service with:\n")
		printCommands(p.Stop)
		fmt.Printf("# and remove %s\n", p.Path)
		return nil
	}
	if _, err := os.Stat(p.Path); os.IsNotExist(err) {
		fmt.Printf("no service file at %s: nothing to do\n", p.Path)
		return nil
	}
	if err := service.Activate(g.Ctx, p.Stop); err != nil {
		fmt.Fprintf(os.Stderr, "vaultctx: stopping the service: %v (removing its file anyway)\n", err)
	}
	if err := service.Uninstall(p); err != nil {
		return err
	}
	fmt.Printf("removed %s\n", p.Path)
	return nil
}
