package main

import (
	"os/exec"
	"syscall"
)

// stopWithParent makes the kernel send cmd SIGTERM when vaultctx dies,
// even by kill -9 (PR_SET_PDEATHSIG), so that no download outlives it.
func stopWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
