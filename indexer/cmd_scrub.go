package main

// scrubCmd is `vaultctx scrub`.
type scrubCmd struct{}

// Run executes the command.
func (c *scrubCmd) Run(g *globals) error { return errNotYet("scrub") }
