//go:build unix

package fsx

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestTryLock(t *testing.T) {
	name := filepath.Join(t.TempDir(), "x.lock")
	release, err := TryLock(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TryLock(name); !errors.Is(err, ErrLocked) {
		t.Fatalf("second lock: %v, want ErrLocked", err)
	}
	release()
	again, err := TryLock(name)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	again()
	if _, err := TryLock(filepath.Join(t.TempDir(), "no", "such", "dir.lock")); err == nil || errors.Is(err, ErrLocked) {
		t.Fatalf("lock in a missing folder: %v, want an error", err)
	}
}
