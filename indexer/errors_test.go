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
		{"older schema", fmt.Errorf("open x.db: %w", &store.SchemaError{Have: "2"}), 1, "run `vaultctx index --full`"},
		{"newer schema", fmt.Errorf("open x.db: %w", &store.SchemaError{Have: "99"}), 1,
			"a newer vaultctx wrote this index: run that version, or `vaultctx index --full` to rebuild it for this one (which the newer one would rebuild again)"},
		// As store.Open reports the fault campaign's damage (issue 17):
		// 00 00 00 09 at offset 44, the schema format number.
		{"damaged file", fmt.Errorf("open x.db: %w: %w", store.ErrDamaged, errors.New("unsupported file format")), 1,
			"run `vaultctx index --full`, which builds a new index and replaces the damaged file"},
		{"foreign file", fmt.Errorf("open x.db: %w: it does not start as an SQLite file", store.ErrNotAnIndex), 1, notAnIndexFix},
		{"other vault", fmt.Errorf("x.db holds the index of /a, not /b: %w", index.ErrOtherVault), 1, otherVaultFix},
		{"locked", fmt.Errorf("open x.db: %w: %w", store.ErrLocked, errors.New("database is locked")), 1, lockedFix},
		{"symlink loop", fmt.Errorf("index file x.db: %w", store.ErrSymlinkLoop), 1,
			"remove or fix the link, or choose another --db (or db in the config, or VAULTCTX_DB)"},
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

// TestHintNamesDB: a hint that names `vaultctx index` names the index the
// command was pointed at, quoted for a shell.
func TestHintNamesDB(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"status", "--db", "/tmp/my index.db"}, "run `vaultctx index --full --db '/tmp/my index.db'`"},
		{[]string{"search", "--db=/x.db", "q"}, "run `vaultctx index --full --db /x.db`"},
		{[]string{"search", "--", "--db", "x"}, "run `vaultctx index --full`"},
		{[]string{"status"}, "run `vaultctx index --full`"},
	} {
		if got := withDB("run `vaultctx index --full`", dbFlag(c.args)); got != c.want {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
	if got := withDB("run `vaultctx index`, which rolls back", "/a.db"); got != "run `vaultctx index --db /a.db`, which rolls back" {
		t.Errorf("plain index hint: %q", got)
	}
	// Every command named that reads the index gets it: doctor and status
	// take --db too, and so do doctor's fix lines (no backquotes there).
	for _, c := range []struct{ hint, want string }{
		{"the index file is damaged: `vaultctx doctor` names the damage; run `vaultctx index --full` to rebuild it",
			"the index file is damaged: `vaultctx doctor --db /a.db` names the damage; run `vaultctx index --full --db /a.db` to rebuild it"},
		{"for hybrid search: vaultctx model pull && vaultctx index", "for hybrid search: vaultctx model pull && vaultctx index --db /a.db"},
		{"rebuild it: vaultctx index --full (it replaces a damaged file)", "rebuild it: vaultctx index --full --db /a.db (it replaces a damaged file)"},
		{"vaultctx status lists them", "vaultctx status --db /a.db lists them"},
		{"vaultctx indexes it; vaultctx index --fuller", "vaultctx indexes it; vaultctx index --db /a.db --fuller"},
	} {
		if got := withDB(c.hint, "/a.db"); got != c.want {
			t.Errorf("withDB(%q) = %q, want %q", c.hint, got, c.want)
		}
	}
}
