package compress

import (
	"regexp"
	"testing"
)

// Every expression the package compiles on first use compiles: a typo
// fails here, not in a user's hook call.
func TestLazyREsCompile(t *testing.T) {
	if len(lazyREs) < 40 {
		t.Fatalf("%d lazy expressions registered, want the package's 44 or so", len(lazyREs))
	}
	for _, l := range lazyREs {
		if _, err := regexp.Compile(l.expr); err != nil {
			t.Errorf("%q: %v", l.expr, err)
		}
	}
}
