package main

// evalCmd is `vaultctx eval`.
type evalCmd struct{}

// Run executes the command.
func (c *evalCmd) Run(g *globals) error { return errNotYet("eval") }
