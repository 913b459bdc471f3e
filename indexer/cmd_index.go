package main

// indexCmd is `vaultctx index`.
type indexCmd struct{}

// Run executes the command.
func (c *indexCmd) Run(g *globals) error { return errNotYet("index") }
