//go:build unix

package posttool

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestLatestPromptFIFO: a FIFO with no writer as transcript_path must give
// no prompt instead of blocking in open(2) or read(2). The watchdog only
// turns a hang into a failure; it measures nothing.
func TestLatestPromptFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "transcript.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan string, 1)
	go func() { done <- LatestPrompt(fifo) }()
	select {
	case got := <-done:
		if got != "" {
			t.Fatalf("LatestPrompt(FIFO) = %q, want \"\"", got)
		}
	case <-time.After(time.Minute):
		t.Fatal("LatestPrompt blocked on a FIFO")
	}
	for _, p := range []string{"/dev/null", "/dev/zero"} {
		if got := LatestPrompt(p); got != "" {
			t.Errorf("LatestPrompt(%s) = %q, want \"\"", p, got)
		}
	}
}
