package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/store"
)

func TestExitCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		code int
		hint string
	}{
		{"success", nil, 0, ""},
		{"interrupted", fmt.Errorf("index: %w", errInterrupted), 130, ""},
		{"usage", usageError{"pass --vault DIR"}, 2, ""},
		{"plain error", errors.New("disk full"), 1, ""},
		{"wrapped schema", fmt.Errorf("open x.db: %w", store.ErrSchema), 1, "run `vaultctx index --full`"},
		{"other vault", fmt.Errorf("x.db holds the index of /a, not /b: %w", index.ErrOtherVault), 1,
			"pass --full to re-index it for the new vault, or choose another --db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, hint := exitCode(tt.err)
			if code != tt.code || hint != tt.hint {
				t.Errorf("exitCode(%v) = %d, %q; want %d, %q", tt.err, code, hint, tt.code, tt.hint)
			}
		})
	}
}

// TestCoreErrorsCarryNoHints keeps the CLI's words out of core: a
// sentinel names the problem, the hint table says what to run.
func TestCoreErrorsCarryNoHints(t *testing.T) {
	for _, h := range hints {
		msg := h.err.Error()
		for _, bad := range []string{"`vaultctx ", "--", "run `", "pass "} {
			if strings.Contains(msg, bad) {
				t.Errorf("%q carries a CLI hint (%q)", msg, bad)
			}
		}
	}
}
