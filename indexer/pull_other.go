//go:build !linux

package main

import "os/exec"

// stopWithParent does nothing where the kernel cannot signal a child when
// its parent dies: a download outlives a vaultctx killed with -9 there
// until it ends or times out.
func stopWithParent(cmd *exec.Cmd) {}
