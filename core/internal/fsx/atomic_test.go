package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// names lists dir's entries.
func names(tb testing.TB, dir string) []string {
	tb.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteAtomic(t *testing.T) {
	tests := []struct {
		name    string
		old     []byte // nil = no file before
		data    []byte
		perm    fs.FileMode
		durable bool
	}{
		{"new file", nil, []byte("hello\n"), 0o600, false},
		{"new file durable", nil, []byte("hello\n"), 0o644, true},
		{"replace", []byte("old contents, longer\n"), []byte("new\n"), 0o600, false},
		{"replace durable", []byte("old\n"), []byte("new\n"), 0o640, true},
		{"empty data", []byte("old\n"), []byte{}, 0o600, true},
		{"umask not applied", nil, []byte("x"), 0o666, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.json")
			if tt.old != nil {
				if err := os.WriteFile(path, tt.old, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteAtomic(path, tt.data, tt.perm, tt.durable); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil || string(got) != string(tt.data) {
				t.Errorf("contents = %q, %v; want %q", got, err, tt.data)
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != tt.perm {
				t.Errorf("mode = %v, want %v", st.Mode().Perm(), tt.perm)
			}
			if n := names(t, dir); !slices.Equal(n, []string{"f.json"}) {
				t.Errorf("folder holds %q, want only f.json", n)
			}
		})
	}
}

func TestWriteAtomicFailures(t *testing.T) {
	t.Run("missing folder", func(t *testing.T) {
		dir := t.TempDir()
		err := WriteAtomic(filepath.Join(dir, "no", "f"), []byte("x"), 0o600, true)
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("err = %v, want fs.ErrNotExist", err)
		}
		if n := names(t, dir); len(n) != 0 {
			t.Errorf("left %q", n)
		}
	})
	t.Run("rename over a folder", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "target")
		if err := os.MkdirAll(filepath.Join(target, "child"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, durable := range []bool{false, true} {
			if err := WriteAtomic(target, []byte("x"), 0o600, durable); err == nil {
				t.Fatalf("durable %v: renaming over a non-empty folder succeeded", durable)
			}
			if n := names(t, dir); !slices.Equal(n, []string{"target"}) {
				t.Errorf("durable %v: folder holds %q, want the temporary file removed", durable, n)
			}
			if st, err := os.Stat(target); err != nil || !st.IsDir() {
				t.Errorf("target changed: %v, %v", st, err)
			}
		}
	})
}

func TestFile(t *testing.T) {
	t.Run("abort keeps the target", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := Create(path, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("new")); err != nil {
			t.Fatal(err)
		}
		f.Abort()
		f.Abort() // a second Abort does nothing
		if got, _ := os.ReadFile(path); string(got) != "old" {
			t.Errorf("target = %q after Abort, want old", got)
		}
		if n := names(t, dir); !slices.Equal(n, []string{"f"}) {
			t.Errorf("folder holds %q", n)
		}
		if err := f.Commit(true); !errors.Is(err, os.ErrClosed) {
			t.Errorf("Commit after Abort = %v, want os.ErrClosed", err)
		}
		if _, err := f.Write([]byte("x")); err == nil {
			t.Error("Write after Abort succeeded")
		}
	})
	t.Run("streamed writes", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "f")
		f, err := Create(path, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(f.Name()) != dir {
			t.Errorf("temporary file %s is not beside the target", f.Name())
		}
		for _, s := range []string{"a", "b", "c"} {
			if _, err := f.Write([]byte(s)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("target exists before Commit: %v", err)
		}
		if err := f.Commit(false); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != "abc" {
			t.Errorf("target = %q, want abc", got)
		}
		if err := f.Commit(false); !errors.Is(err, os.ErrClosed) {
			t.Errorf("second Commit = %v, want os.ErrClosed", err)
		}
	})
}

func BenchmarkWriteAtomic(b *testing.B) {
	data := make([]byte, 4096)
	for _, durable := range []bool{false, true} {
		name := "cache"
		if durable {
			name = "durable"
		}
		b.Run(name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "f")
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if err := WriteAtomic(path, data, 0o600, durable); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
