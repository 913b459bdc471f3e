//go:build unix

package claudetest

import (
	"os/exec"
	"syscall"
)

// killGroup runs cmd in its own process group and makes its cancellation
// kill the whole group, so the commands a scripted Bash call started die
// with the CLI.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
