package store

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// envFullDisk names, in the child process of TestFullDiskReads, the
// mounted tmpfs to fill and the index to copy onto it.
const envFullDisk = "VAULTCTX_TEST_FULLDISK"

// TestFullDiskReads is the fault campaign's case (issue 17): on a full
// disk, an intact index without -shm (the state a quiet index run leaves)
// failed every read with "disk I/O error: no space left on device". It
// runs on a real full filesystem: a 1 MiB tmpfs mounted in a user and
// mount namespace (`unshare -r -m`, no root needed), filled to the last
// byte, then read by this test binary in a child process. Without
// unshare or user namespaces it skips.
func TestFullDiskReads(t *testing.T) {
	if mnt := os.Getenv(envFullDisk); mnt != "" {
		fullDiskChild(t, mnt, os.Getenv(envFullDisk+"_SRC"))
		return
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare: a real full filesystem needs a mount namespace")
	}
	if out, err := exec.Command(unshare, "-r", "-m", "true").CombinedOutput(); err != nil {
		t.Skipf("unshare -r -m fails (%v: %s): a real full filesystem needs user namespaces", err, out)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "index.db")
	s, err := Open(context.Background(), src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, "a.md", "alpha bravo charlie", "delta echo foxtrot")
	s.Close() // the last connection checkpoints and deletes -wal and -shm
	for _, p := range []string{src + "-wal", src + "-shm"} {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("%s left after close", p)
		}
	}
	mnt := filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(unshare, "-r", "-m", "sh", "-c", `mount -t tmpfs -o size=1m tmpfs "$1" && exec "$2" -test.run '^TestFullDiskReads$' -test.v`, "sh", mnt, os.Args[0])
	cmd.Env = append(os.Environ(), envFullDisk+"="+mnt, envFullDisk+"_SRC="+src)
	out, err := cmd.CombinedOutput()
	t.Logf("child:\n%s", out)
	if err != nil {
		t.Fatalf("child: %v", err)
	}
}

func fullDiskChild(t *testing.T, mnt, src string) {
	ctx := context.Background()
	db := filepath.Join(mnt, "index.db")
	copyFile(t, src, db)
	fill, err := os.Create(filepath.Join(mnt, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	for {
		if _, err := fill.Write(buf); err != nil {
			break
		}
	}
	for len(buf) > 1 { // the last partial block
		buf = buf[:len(buf)/2]
		fill.Write(buf)
	}
	fill.Close()
	if _, err := fill.Write([]byte{0}); err == nil {
		t.Fatal("the disk is not full")
	}
	probe := filepath.Join(mnt, "probe")
	if err := os.WriteFile(probe, []byte("x"), 0o644); err == nil {
		t.Fatal("the disk is not full: a one-byte file fits")
	}
	os.Remove(probe)

	r, err := Open(ctx, db, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of an intact index on a full disk: %v", err)
	}
	defer r.Close()
	if !errors.Is(r.Fallback(), ErrDiskFull) {
		t.Errorf("Fallback() = %v, want ErrDiskFull", r.Fallback())
	}
	hits, err := r.KeywordHits(ctx, "bravo echo", 5, DefaultColumnWeights)
	if err != nil || len(hits) != 2 {
		t.Errorf("search on a full disk: %v, %v; want both chunks", hits, err)
	}
	if _, err := Open(ctx, db, Options{}); !errors.Is(err, ErrDiskFull) {
		t.Errorf("writer open on a full disk: %v, want ErrDiskFull", err)
	}
}

func copyFile(tb testing.TB, src, dst string) {
	tb.Helper()
	in, err := os.Open(src)
	if err != nil {
		tb.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		tb.Fatal(err)
	}
	if err := out.Close(); err != nil {
		tb.Fatal(err)
	}
}
