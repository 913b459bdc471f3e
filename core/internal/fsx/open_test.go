package fsx

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestReadTail(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(p, []byte("line one\nline two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n    int64
		want string
		cut  bool
	}{
		{1 << 20, "line one\nline two\n", false},
		{18, "line one\nline two\n", false},
		{9, "line two\n", true},
		{4, "two\n", true},
	} {
		got, cut, err := ReadTail(p, tc.n)
		if err != nil || string(got) != tc.want || cut != tc.cut {
			t.Errorf("ReadTail(%d) = %q, %v, %v; want %q, %v", tc.n, got, cut, err, tc.want, tc.cut)
		}
	}
	if _, _, err := ReadTail(dir, 10); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadTail(a folder) = %v, want ErrNotRegular", err)
	}
	if _, _, err := ReadTail(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadTail(missing) = %v, want ErrNotExist", err)
	}
}

// TestKindOf names each kind of file that is not a regular one.
func TestKindOf(t *testing.T) {
	for m, want := range map[os.FileMode]string{
		os.ModeDir:                        "directory",
		os.ModeDevice | os.ModeCharDevice: "character device",
		os.ModeDevice:                     "block device",
		os.ModeNamedPipe:                  "named pipe (FIFO)",
		os.ModeSocket:                     "socket",
		os.ModeIrregular:                  "special file",
	} {
		if got := KindOf(m); got != want {
			t.Errorf("KindOf(%v) = %q, want %q", m, got, want)
		}
	}
}
