//go:build unix

package testkit

import (
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// nobody is the conventional unprivileged uid and gid.
const nobody = 65534

// RunAsNobody re-runs the named test of this test binary as uid/gid nobody
// and fails t if it fails. The binary is copied where nobody can run it;
// the child runs in that folder with TMPDIR and HOME of its own. Call it
// only when os.Geteuid() is 0 (root reads every file whatever its mode,
// so a test of unreadable files must run as someone else). It skips t when
// nobody cannot reach any temporary folder.
func RunAsNobody(t *testing.T, name string) {
	t.Helper()
	// TMPDIR may be private (mktemp -d makes a 0700 folder): then use /tmp,
	// which nobody can reach.
	base := os.TempDir()
	if !othersCanEnter(base) {
		if !othersCanEnter("/tmp") {
			t.Skipf("neither %s nor /tmp is reachable by nobody", base)
		}
		base = "/tmp"
	}
	dir, err := os.MkdirTemp(base, "testkit-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "tmp") // the child's TMPDIR, nobody's own
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(tmp, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, filepath.Base(os.Args[0]))
	if err := copyFile(os.Args[0], bin, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+name+"$", "-test.v")
	cmd.Dir = dir
	cmd.Env = []string{"TMPDIR=" + tmp, "HOME=" + dir, "PATH=" + os.Getenv("PATH")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	t.Logf("as nobody:\n%s", out)
	if err != nil {
		t.Fatalf("%s as nobody: %v", name, err)
	}
}

// othersCanEnter reports whether every folder from / down to dir has the
// execute bit for others, so another user can reach files below it.
func othersCanEnter(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for p := abs; ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err != nil || st.Mode().Perm()&0o001 == 0 {
			return false
		}
		if filepath.Dir(p) == p {
			return true
		}
	}
}

func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
