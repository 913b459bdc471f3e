package compress

import (
	"os"
	"strings"
	"testing"
)

func TestTightShow(t *testing.T) {
	if os.Getenv("SHOW") == "" {
		t.Skip()
	}
	for _, c := range loadCases(t) {
		if !strings.Contains(c.Name, os.Getenv("SHOW")) {
			continue
		}
		ex := condenseCase(c, Options{ThresholdBytes: 1, BudgetTokens: 400})
		t.Logf("=== %s\n%s----- stderr -----\n%s", c.Name, ex.Stdout, ex.Stderr)
	}
}
