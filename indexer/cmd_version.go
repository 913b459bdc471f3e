package main

import "fmt"

// versionCmd is `vaultctx version`.
type versionCmd struct{}

// Run prints the version.
func (c *versionCmd) Run(g *globals) error {
	fmt.Println("vaultctx", version)
	return nil
}
