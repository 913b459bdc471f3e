package main

// embedCmd is `vaultctx embed`.
type embedCmd struct{}

// Run executes the command.
func (c *embedCmd) Run(g *globals) error { return errNotYet("embed") }
