package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSeenRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	s, err := Open(dir, "3f1c2a7e-1b2d")
	if err != nil {
		t.Fatal(err)
	}
	if s.Has(7) {
		t.Fatal("fresh state has 7")
	}
	s.Add(7, 9, 7)
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(dir, "3f1c2a7e-1b2d")
	if err != nil {
		t.Fatal(err)
	}
	if !s2.Has(7) || !s2.Has(9) || s2.Has(8) {
		t.Fatal("state not persisted")
	}
	other, _ := Open(dir, "another")
	if other.Has(7) {
		t.Fatal("sessions share state")
	}
	info, err := os.Stat(filepath.Join(dir, SafeName("3f1c2a7e-1b2d")+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", info.Mode().Perm())
	}
}

func TestSeenCorruptAndExpired(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, SafeName("bad")+".json")
	os.WriteFile(corrupt, []byte("{not json"), 0o600)
	s, err := Open(dir, "bad")
	if err != nil || s.Has(1) {
		t.Fatalf("corrupt file: %v", err)
	}
	s.Add(1)
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}

	old := filepath.Join(dir, SafeName("old")+".json")
	os.WriteFile(old, []byte(`{"session_id":"old","chunks":[5]}`), 0o600)
	past := time.Now().Add(-TTL - time.Hour)
	os.Chtimes(old, past, past)
	s, _ = Open(dir, "old")
	if s.Has(5) {
		t.Fatal("expired state was used")
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatal("expired state file not deleted")
	}
}

// Other sessions' expired files go in a sweep at most once per SweepEvery,
// so a hook does not stat the whole directory on every call.
func TestSeenSweep(t *testing.T) {
	dir := t.TempDir()
	expired := func(name string) string {
		p := filepath.Join(dir, SafeName(name)+".json")
		os.WriteFile(p, []byte(`{"session_id":"`+name+`","chunks":[1]}`), 0o600)
		past := time.Now().Add(-TTL - time.Hour)
		os.Chtimes(p, past, past)
		return p
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	first := expired("first")
	if _, err := Open(dir, "me"); err != nil {
		t.Fatal(err)
	}
	if exists(first) {
		t.Fatal("the first Open did not sweep an expired file")
	}
	second := expired("second")
	if _, err := Open(dir, "me"); err != nil {
		t.Fatal(err)
	}
	if !exists(second) {
		t.Fatal("swept again within SweepEvery")
	}
	past := time.Now().Add(-SweepEvery - time.Minute)
	os.Chtimes(filepath.Join(dir, sweptMarker), past, past)
	if _, err := Open(dir, "me"); err != nil {
		t.Fatal(err)
	}
	if exists(second) {
		t.Fatal("no sweep after SweepEvery")
	}
	fresh, _ := Open(dir, "me")
	fresh.Add(7)
	if err := fresh.Save(); err != nil {
		t.Fatal(err)
	}
	if again, _ := Open(dir, "me"); !again.Has(7) {
		t.Fatal("a live session's state was lost")
	}
}

func TestSafeName(t *testing.T) {
	for _, id := range []string{"toolu_01abc", "a/b", "a_b", "../../etc/passwd", "", ".hidden", strings.Repeat("x", 300), "é"} {
		n := SafeName(id)
		if n == "" || strings.ContainsAny(n, "/\\") || strings.HasPrefix(n, ".") || len(n) > 120 {
			t.Errorf("SafeName(%q) = %q is not a safe file name", id, n)
		}
	}
	if SafeName("toolu_01abc") != "toolu_01abc" {
		t.Error("a clean id must be kept as is")
	}
	if SafeName("a/b") == SafeName("a_b") {
		t.Error("distinct ids share a name")
	}
}

// TestReset checks that Reset empties one session and leaves the others,
// and that resetting a session with no state is no error.
func TestReset(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	for _, id := range []string{"compacted", "other", "compacted/agent-a1"} {
		s, err := Open(dir, id)
		if err != nil {
			t.Fatal(err)
		}
		s.Add(1, 2)
		if err := s.Save(); err != nil {
			t.Fatal(err)
		}
	}
	if err := Reset(dir, "compacted"); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{"compacted": false, "other": true, "compacted/agent-a1": true} {
		s, err := Open(dir, id)
		if err != nil {
			t.Fatal(err)
		}
		if s.Has(1) != want {
			t.Errorf("after Reset(compacted), %s has chunk 1 = %v, want %v", id, s.Has(1), want)
		}
	}
	if err := Reset(dir, "never-seen"); err != nil {
		t.Errorf("Reset of a session without state: %v", err)
	}
	if err := Reset(filepath.Join(dir, "missing-dir"), "x"); err != nil {
		t.Errorf("Reset in a missing folder: %v", err)
	}
}

// TestHugeSessionID is the fault campaign's case (issue 17): a
// multi-megabyte session_id wrote a multi-megabyte state file on every
// call. The file records a hash of a long id, and two long ids that share
// their first megabytes still keep apart.
func TestHugeSessionID(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	huge := strings.Repeat("s", 4<<20)
	s, err := Open(dir, huge+"a")
	if err != nil {
		t.Fatal(err)
	}
	s.Add(1, 2, 3)
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(dir, SafeName(huge+"a")+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > 1024 {
		t.Errorf("state file of a 4 MiB session id holds %d bytes, want at most 1 KiB", info.Size())
	}
	again, _ := Open(dir, huge+"a")
	if !again.Has(2) {
		t.Error("the state of a long session id was not read back")
	}
	if other, _ := Open(dir, huge+"b"); other.Has(2) {
		t.Error("two long session ids share state")
	}
}
