package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

// TestBackgroundRefreshSurvivesKill: a background refresh (`vaultctx index
// --background`, as the hooks start it) killed with SIGKILL at ten moments
// spread over a run leaves an index every reader can search, and the next
// refresh completes: each round edits 60 notes, the run is killed after a
// tenth more of a measured run's time than the round before, a search must
// answer, and at the end a plain index run brings every edit in.
func TestBackgroundRefreshSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes with a real model ten times")
	}
	dir := isolateCLI(t)
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	vault := filepath.Join(dir, "vault")
	for _, m := range []string{"Microsoft.PowerShell.Utility", "Microsoft.PowerShell.Management", "Microsoft.PowerShell.Core"} {
		testkit.CopyTree(t, testkit.Shared(t, "corpora/large/PowerShell-Docs/reference/7.4/"+m), filepath.Join(vault, m))
	}
	db := filepath.Join(dir, "index.db")
	cfgPath := filepath.Join(dir, "config.toml")
	cfg := fmt.Sprintf("vault = %q\ndb = %q\nmodel = %q\n", vault, db, testkit.Shared(t, "models/glove-120k"))
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VAULTCTX_CONFIG", cfgPath)
	if code, out := runCaptured(t, "index"); code != 0 {
		t.Fatalf("first index: exit %d\n%s", code, out)
	}
	var notes []string
	filepath.WalkDir(filepath.Join(vault, "Microsoft.PowerShell.Utility"), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".md") && len(notes) < 60 {
			notes = append(notes, p)
		}
		return nil
	})
	edit := func(round int) {
		for _, p := range notes {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			// Under a heading of its own: the notes end with RELATED LINKS,
			// a section the chunker leaves out.
			fmt.Fprintf(f, "\n\n## Kill round %d\n\nRound marker killround%dmark for this note, long enough to be a chunk of its own.\n", round, round)
			f.Close()
		}
	}
	background := func() *exec.Cmd {
		cmd := exec.Command(bin, "index", "--background")
		cmd.Env = append(os.Environ(), envBeMain+"=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	// One whole background run, to spread the kills over its length.
	edit(0)
	start := time.Now()
	if err := background().Wait(); err != nil {
		t.Fatalf("background refresh: %v", err)
	}
	whole := time.Since(start)
	t.Logf("one background refresh of %d edited notes: %v", len(notes), whole)
	killed := 0
	for k := 1; k <= 10; k++ {
		edit(k)
		cmd := background()
		time.Sleep(whole * time.Duration(k) / 10)
		cmd.Process.Kill()
		if err := cmd.Wait(); err != nil && strings.Contains(err.Error(), "killed") {
			killed++
		}
		if code, out := runCaptured(t, "search", "--mode", "bm25", "Get-Date"); code != 0 {
			t.Fatalf("kill %d (after %v): search exit %d\n%s", k, whole*time.Duration(k)/10, code, out)
		}
	}
	// A kill after the run ended tests nothing: most must land inside it.
	if killed < 5 {
		t.Fatalf("only %d of 10 kills landed inside a run", killed)
	}
	t.Logf("%d of 10 kills landed inside a run", killed)
	if code, out := runCaptured(t, "index"); code != 0 {
		t.Fatalf("index after the kills: exit %d\n%s", code, out)
	}
	// The marker chunks are copies of one text: --all-copies lists each.
	code, out := runCaptured(t, "search", "--mode", "bm25", "--all-copies", "-k", "100", "killround10mark")
	if code != 0 || strings.Count(out, "killround10mark") != len(notes) {
		t.Fatalf("after the kills the last edits are not all in: exit %d, %d hits\n%s", code, strings.Count(out, ".md"), out)
	}
}
