package compress

import (
	"context"
	"strings"
	"testing"
)

// TestTightBudgetKeepsVerdictAndFirstError squeezes every case into 400
// tokens: the extract must still hold each stream's last line (the verdict)
// and the first error line, when the command is not a data command.
func TestTightBudgetKeepsVerdictAndFirstError(t *testing.T) {
	opts := Options{ThresholdBytes: 1, BudgetTokens: 400}
	for _, c := range loadCases(t) {
		if isDataCommand(c.Req.Command) {
			continue
		}
		ex := Condense(context.Background(), c.Req, opts, testSavedPath)
		text := ex.Stdout + ex.Stderr
		lines, _ := splitStreams(c.Req, false, newQuery(c.Req))
		want := map[string]string{}
		for _, l := range lines {
			if l.kind == kindError && want["first error"] == "" {
				want["first error"] = l.show
			}
		}
		// The last line of each stream, unless it is one more of a run of
		// similar lines (which collapse instead).
		for s, name := range []string{"last stdout line", "last stderr line"} {
			var prev string
			for _, l := range lines {
				if int(l.stream) == s && l.kind != kindBlank {
					prev, want[name] = want[name], l.show
				}
			}
			if want[name] != "" && prev != "" && shapeKey(Normalize(prev), false) == shapeKey(Normalize(want[name]), false) {
				delete(want, name)
			}
		}
		for what, want := range want {
			if want != "" && !strings.Contains(text, defaultScrub(want)) {
				t.Errorf("%s: %s %q lost under a tight budget", c.Name, what, want)
			}
		}
	}
}
