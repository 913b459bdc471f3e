//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/vaultctx/vaultctx/core/internal/fsx"
)

// TestLoadRefusesSpecialFiles: a config that is a FIFO (open(2) waits for
// a writer), a device (/dev/zero reads without end) or a regular file over
// MaxFileBytes is an error at once, for Load and for RecordModel.
func TestLoadRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxFileBytes)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(string) string { return "" }
	for _, tc := range []struct {
		path string
		want error
	}{{fifo, fsx.ErrNotRegular}, {"/dev/zero", fsx.ErrNotRegular}, {big, fsx.ErrTooLarge}} {
		if _, err := Load(tc.path, getenv); !errors.Is(err, tc.want) {
			t.Errorf("Load(%s): %v, want %v", tc.path, err, tc.want)
		}
		if _, err := RecordModel(tc.path, dir, getenv); !errors.Is(err, tc.want) {
			t.Errorf("RecordModel(%s): %v, want %v", tc.path, err, tc.want)
		}
	}
}
