package main

// searchCmd is `vaultctx search`.
type searchCmd struct{}

// Run executes the command.
func (c *searchCmd) Run(g *globals) error { return errNotYet("search") }
