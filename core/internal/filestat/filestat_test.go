package filestat

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestStampSeesRestoredMtime writes a same-length edit and sets the mtime
// back, as `cp -p` or `touch -r` would: size and mtime match, ctime does not.
func TestStampSeesRestoredMtime(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no ctime on Windows")
	}
	p := filepath.Join(t.TempDir(), "a.md")
	if err := os.WriteFile(p, []byte("alpha"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	before, err := Path(p)
	if err != nil {
		t.Fatal(err)
	}
	if before.Inode == 0 || before.CtimeNS == 0 {
		t.Fatalf("no inode or ctime: %+v", before)
	}
	// ctime has the clock's granularity; step past it.
	time.Sleep(20 * time.Millisecond)
	if err := os.WriteFile(p, []byte("omega"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	after, err := Path(p)
	if err != nil {
		t.Fatal(err)
	}
	if after.Size != before.Size || after.MtimeNS != before.MtimeNS {
		t.Fatalf("setup: size or mtime differ: %+v %+v", before, after)
	}
	if after == before {
		t.Fatalf("same stamp after a same-length edit with the mtime restored: %+v", after)
	}
	if after.Inode != before.Inode {
		t.Errorf("inode changed on an in-place write: %d -> %d", before.Inode, after.Inode)
	}
}

// TestStampSeesRename renames one file over another of equal size and
// mtime: the inode tells them apart.
func TestStampSeesRename(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no inode numbers on Windows")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.md"), filepath.Join(dir, "b.md")
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte(filepath.Base(p)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	sb, _ := Path(b)
	if err := os.Rename(a, b); err != nil {
		t.Fatal(err)
	}
	got, _ := Path(b)
	if got.Inode == sb.Inode {
		t.Fatalf("b.md kept its inode after a.md was renamed over it")
	}
}
