package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// envFullDisk names, in the child process of TestStatusFullDisk, the
// mounted tmpfs to fill and the index and vault to use.
const envFullDisk = "VAULTCTX_TEST_FULLDISK"

// TestStatusFullDisk: on a real full filesystem (a 1 MiB tmpfs mounted in
// a user and mount namespace with `unshare -r -m`, filled to the last
// byte), search answers from an intact index, status says the disk is
// full, and an index run fails with the hint to free space (issue 17).
// Without unshare or user namespaces it skips.
func TestStatusFullDisk(t *testing.T) {
	if mnt := os.Getenv(envFullDisk); mnt != "" {
		statusFullDiskChild(t, mnt, os.Getenv(envFullDisk+"_SRC"), os.Getenv(envFullDisk+"_VAULT"))
		return
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare: a real full filesystem needs a mount namespace")
	}
	if out, err := exec.Command(unshare, "-r", "-m", "true").CombinedOutput(); err != nil {
		t.Skipf("unshare -r -m fails (%v: %s): a real full filesystem needs user namespaces", err, out)
	}
	dir := isolateCLI(t)
	vault := filepath.Join(dir, "vault")
	testkit.CopyTree(t, testkit.Shared(t, "corpora/edge"), vault)
	src := filepath.Join(dir, "index.db")
	if code, out := runCaptured(t, "index", "--vault", vault, "--db", src, "--no-model"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, out)
	}
	mnt := filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(unshare, "-r", "-m", "sh", "-c", `mount -t tmpfs -o size=1m tmpfs "$1" && exec "$2" -test.run '^TestStatusFullDisk$' -test.v`, "sh", mnt, os.Args[0])
	cmd.Env = append(os.Environ(), envFullDisk+"="+mnt, envFullDisk+"_SRC="+src, envFullDisk+"_VAULT="+vault)
	out, err := cmd.CombinedOutput()
	t.Logf("child:\n%s", out)
	if err != nil {
		t.Fatalf("child: %v", err)
	}
}

func statusFullDiskChild(t *testing.T, mnt, src, vault string) {
	isolateCLI(t)
	db := filepath.Join(mnt, "index.db")
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := os.Create(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, in); err != nil {
		t.Fatal(err)
	}
	in.Close()
	dst.Close()
	fill, err := os.Create(filepath.Join(mnt, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	for buf := make([]byte, 4096); len(buf) > 0; buf = buf[:len(buf)/2] {
		for {
			if _, err := fill.Write(buf); err != nil {
				break
			}
		}
	}
	fill.Close()
	if err := os.WriteFile(filepath.Join(mnt, "probe"), []byte("x"), 0o644); err == nil {
		t.Fatal("the disk is not full: a one-byte file fits")
	}

	if code, out := runCaptured(t, "search", "--db", db, "--mode", "bm25", "frontmatter"); code != 0 || strings.TrimSpace(out) == "" {
		t.Errorf("search on a full disk: exit %d, output %q", code, out)
	}
	code, out := runCaptured(t, "status", "--db", db)
	if code != 0 || !strings.Contains(out, "disk            full") {
		t.Errorf("status on a full disk: exit %d, output:\n%s", code, out)
	}
	code, out = runCaptured(t, "status", "--db", db, "--json")
	var r statusReport
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || !r.DiskFull {
		t.Errorf("status --json on a full disk: exit %d, disk_full %v: %s", code, r.DiskFull, out)
	}
	code, _, stderr := runStderr(t, "index", "--vault", vault, "--db", db, "--no-model")
	if code != 1 || !strings.Contains(stderr, "free space") {
		t.Errorf("index on a full disk: exit %d, stderr %q; want exit 1 and the hint to free space", code, stderr)
	}
}
