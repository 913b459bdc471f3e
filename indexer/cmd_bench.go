package main

// benchCmd is `vaultctx bench`.
type benchCmd struct{}

// Run executes the command.
func (c *benchCmd) Run(g *globals) error { return errNotYet("bench") }
