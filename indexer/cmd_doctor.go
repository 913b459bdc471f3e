package main

// doctorCmd is `vaultctx doctor`.
type doctorCmd struct{}

// Run executes the command.
func (c *doctorCmd) Run(g *globals) error { return errNotYet("doctor") }
