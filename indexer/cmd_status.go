package main

// statusCmd is `vaultctx status`.
type statusCmd struct{}

// Run executes the command.
func (c *statusCmd) Run(g *globals) error { return errNotYet("status") }
