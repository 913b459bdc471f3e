package main

// hooksCmd is `vaultctx hooks install|uninstall|status`.
type hooksCmd struct {
	Install   hooksInstallCmd   `cmd:"" help:"Add our hooks to settings.json (merge, never replace)."`
	Uninstall hooksUninstallCmd `cmd:"" help:"Remove only our hooks from settings.json."`
	Status    hooksStatusCmd    `cmd:"" help:"Show which events are wired, and to which binaries."`
}

// hooksInstallCmd is `vaultctx hooks install`.
type hooksInstallCmd struct{}

// Run executes the command.
func (c *hooksInstallCmd) Run(g *globals) error { return errNotYet("hooks install") }

// hooksUninstallCmd is `vaultctx hooks uninstall`.
type hooksUninstallCmd struct{}

// Run executes the command.
func (c *hooksUninstallCmd) Run(g *globals) error { return errNotYet("hooks uninstall") }

// hooksStatusCmd is `vaultctx hooks status`.
type hooksStatusCmd struct{}

// Run executes the command.
func (c *hooksStatusCmd) Run(g *globals) error { return errNotYet("hooks status") }
