package mmap

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMap(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	want := []byte("0123456789abcdef")
	if err := os.WriteFile(p, want, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Map(f, len(want))
	if err != nil {
		t.Fatal(err)
	}
	f.Close() // the mapping outlives the file
	if string(b) != string(want) {
		t.Errorf("Map = %q, want %q", b, want)
	}
	if err := Unmap(b); err != nil {
		t.Error(err)
	}
}

func TestMapErrors(t *testing.T) {
	p := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := Map(f, 0); err == nil {
		t.Error("Map of size 0 succeeded")
	}
}
