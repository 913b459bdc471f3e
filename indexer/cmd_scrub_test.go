package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"
)

var sharedSecrets = testkit.SharedDir("secrets")

func TestScrubCommand(t *testing.T) {
	note, err := os.ReadFile(filepath.Join(sharedSecrets, "notes_mixed.md"))
	if err != nil {
		t.Fatal(err)
	}
	var spans []struct{ Start, End int }
	raw, err := os.ReadFile(filepath.Join(sharedSecrets, "notes_mixed.expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &spans); err != nil || len(spans) == 0 {
		t.Fatalf("expected spans: %v (%d)", err, len(spans))
	}
	path := filepath.Join(t.TempDir(), "note.md")
	if err := os.WriteFile(path, note, 0o600); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name  string
		cmd   scrubCmd
		stdin string
	}{
		{"file text", scrubCmd{File: path}, ""},
		{"file json", scrubCmd{File: path, JSON: true}, ""},
		{"stdin text", scrubCmd{File: "-"}, string(note)},
		{"stdin json", scrubCmd{File: "-", JSON: true}, string(note)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			c := tc.cmd
			c.stdin, c.stdout, c.stderr = strings.NewReader(tc.stdin), &out, &errb
			if err := c.Run(&globals{}); err != nil {
				t.Fatal(err)
			}
			for _, sp := range spans {
				if secret := string(note[sp.Start:sp.End]); strings.Contains(out.String(), secret) || strings.Contains(errb.String(), secret) {
					t.Errorf("output holds secret %q", secret)
				}
			}
			if !strings.Contains(errb.String(), "jwt=1") {
				t.Errorf("stderr summary %q lacks per-rule counts", errb.String())
			}
			if !c.JSON {
				if !strings.Contains(out.String(), "[REDACTED:github-fine-grained-pat]") || !strings.Contains(out.String(), "# Ops scratchpad") {
					t.Errorf("scrubbed text unexpected:\n%s", out.String())
				}
				return
			}
			var fs []scrubFinding
			if err := json.Unmarshal(out.Bytes(), &fs); err != nil {
				t.Fatalf("json: %v\n%s", err, out.String())
			}
			for _, sp := range spans {
				ok := false
				for _, f := range fs {
					if f.Start <= sp.Start && sp.End <= f.End {
						ok = true
					}
				}
				if !ok {
					t.Errorf("span [%d,%d) not in findings %+v", sp.Start, sp.End, fs)
				}
			}
		})
	}
}

func TestScrubCommandCleanInput(t *testing.T) {
	var out, errb bytes.Buffer
	in := "nothing secret here: https://example.com/x?page=2\n"
	c := scrubCmd{File: "-", JSON: true, stdin: strings.NewReader(in), stdout: &out, stderr: &errb}
	if err := c.Run(&globals{}); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out.String()) != "[]" || errb.Len() != 0 {
		t.Errorf("stdout %q stderr %q, want [] and nothing", out.String(), errb.String())
	}
	out.Reset()
	c = scrubCmd{File: "-", stdin: strings.NewReader(in), stdout: &out, stderr: &errb}
	if err := c.Run(&globals{}); err != nil || out.String() != in {
		t.Errorf("text mode changed clean input: %q, %v", out.String(), err)
	}
}

func TestScrubCommandMissingFile(t *testing.T) {
	c := scrubCmd{File: filepath.Join(t.TempDir(), "absent.md"), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	err := c.Run(&globals{})
	var ue usageError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want a usageError", err)
	}
	if code := run([]string{"scrub", filepath.Join(t.TempDir(), "absent.md")}); code != 2 {
		t.Errorf("exit code %d, want 2", code)
	}
}
