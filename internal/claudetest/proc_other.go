//go:build !unix

package claudetest

import "os/exec"

// killGroup leaves cmd's cancellation as exec does it (the process only):
// there are no process groups to kill here.
func killGroup(cmd *exec.Cmd) {}
