package compress

import (
	"context"
	"strings"
	"testing"
)

func TestBudgetOption(t *testing.T) {
	for _, c := range loadCases(t) {
		content := contentOf(c.Req).kind != contentNone
		if content && len(c.Req.Stdout)+len(c.Req.Stderr) <= ContentPassBytes {
			continue // passes through whole in use (ShouldCondense)
		}
		for _, budget := range []int{50, 200, 700} {
			if content && budget < 200 {
				continue // a cut content output needs room for its header and one marker naming the rest
			}
			ex := Condense(context.Background(), c.Req, Options{ThresholdBytes: 1, BudgetTokens: budget, ContentBudgetTokens: budget}, testSavedPath)
			header := headerLine(ex.Lines, len(c.Req.Stdout)+len(c.Req.Stderr), 0, testSavedPath, "")
			if n := len(ex.Stdout) + len(ex.Stderr); n > budget*CharsPerToken && n > len(header)+1 {
				t.Errorf("%s: %d bytes over a %d-token budget", c.Name, n, budget)
			}
		}
	}
}

func TestWorthReplacing(t *testing.T) {
	req := Request{Stdout: strings.Repeat("x", 3000), Stderr: strings.Repeat("y", 1000)} // 4,000 bytes
	for _, c := range []struct {
		out  int
		want bool
	}{{0, true}, {4000 * (100 - MinSavingPercent) / 100, true}, {4000*(100-MinSavingPercent)/100 + 1, false}, {4000, false}, {5000, false}} {
		ex := Extract{Stdout: strings.Repeat("a", c.out/2), Stderr: strings.Repeat("b", c.out-c.out/2)}
		if got := WorthReplacing(req, ex); got != c.want {
			t.Errorf("WorthReplacing(4000 bytes -> %d) = %v, want %v", c.out, got, c.want)
		}
	}
}
