//go:build unix

package vault

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

func TestWalkSpecialFiles(t *testing.T) {
	root := mkTree(t, map[string]string{"ok.md": "x"})
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe-not-a-note"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, "pipe.md", filepath.Join(root, "pipe-link.md"))
	symlink(t, os.DevNull, filepath.Join(root, "null.md"))
	want := []Skip{
		{"null.md", "not a regular file (char device)", false},
		{"pipe-link.md", "not a regular file (fifo)", false},
		{"pipe.md", "not a regular file (fifo)", false},
	}
	// Unix socket paths are limited to about 100 bytes; use a short
	// folder when the temp folder is too deep.
	sockDir := root
	if len(root) > 80 {
		t.Logf("temp folder too long for a unix socket, socket case skipped")
	} else {
		l, err := net.Listen("unix", filepath.Join(sockDir, "sock.md"))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		want = append(want, Skip{"sock.md", "not a regular file (socket)", false})
	}
	files, skips := walkAll(t, root, Rules{})
	assertPaths(t, files, "ok.md")
	assertSkips(t, skips, want...)

	// Read must not block on a FIFO (nothing ever writes to it).
	_, err := Read(File{Path: "pipe.md", Abs: filepath.Join(root, "pipe.md")}, 0)
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("Read(fifo) = %v, want ErrNotRegular", err)
	}
}

// TestWalkUnreadable checks that unreadable notes and folders become skips.
// Root reads everything, so under root the test re-runs itself as nobody.
func TestWalkUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		testkit.RunAsNobody(t, "TestWalkUnreadable")
		return
	}
	root := mkTree(t, map[string]string{
		"ok.md":           "x",
		"secret.md":       "x",
		"locked/inner.md": "x",
		"noexec/x.md":     "x",
	})
	chmod := func(p string, mode fs.FileMode) {
		t.Helper()
		if err := os.Chmod(filepath.Join(root, p), mode); err != nil {
			t.Fatal(err)
		}
	}
	chmod("secret.md", 0)
	chmod("locked", 0)
	chmod("noexec", 0o644) // listable, but entries cannot be stat'ed
	t.Cleanup(func() {
		chmod("locked", 0o755)
		chmod("noexec", 0o755)
	})
	files, skips := walkAll(t, root, Rules{})
	assertPaths(t, files, "ok.md")
	assertSkips(t, skips,
		Skip{"locked", "permission denied", true},
		Skip{"noexec/x.md", "permission denied", true},
		Skip{"secret.md", "permission denied", true})

	_, err := Read(File{Path: "secret.md", Abs: filepath.Join(root, "secret.md")}, 0)
	if !errors.Is(err, fs.ErrPermission) {
		t.Errorf("Read(unreadable) = %v, want ErrPermission", err)
	}
}

func TestCanRead(t *testing.T) {
	user := creds{euid: 1000, egid: 1000, groups: []int{1000, 27}}
	tests := []struct {
		name     string
		c        creds
		mode     fs.FileMode
		uid, gid int
		want     bool
	}{
		{"root reads mode 000", creds{euid: 0}, 0, 5, 5, true},
		{"owner with r", user, 0o400, 1000, 5, true},
		{"owner without r, others with r", user, 0o044, 1000, 5, false},
		{"primary group", user, 0o040, 5, 1000, true},
		{"supplementary group", user, 0o040, 5, 27, true},
		{"group without r", user, 0o404, 5, 27, false},
		{"other", user, 0o004, 5, 5, true},
		{"nothing", user, 0o000, 5, 5, false},
	}
	for _, tt := range tests {
		if got := tt.c.canRead(tt.mode, tt.uid, tt.gid); got != tt.want {
			t.Errorf("%s: canRead(%v, %d, %d) = %v, want %v", tt.name, tt.mode, tt.uid, tt.gid, got, tt.want)
		}
	}
}
