package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestFullFile(t *testing.T) {
	e := env(map[string]string{"HOME": "/home/u"})
	c, err := Load("testdata/full.toml", e)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("testdata")
	if c.Vault != "/home/u/Notes" || c.DB != filepath.Join(abs, "index.db") {
		t.Errorf("paths: vault %q db %q", c.Vault, c.DB)
	}
	if len(c.Exclude) != 2 || c.Search.Columns != [3]float64{1, 0.5, 0.3} || c.Hooks.PromptBudgetTokens != 500 {
		t.Errorf("values: %+v", c)
	}
}

func TestPrecedence(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.toml")
	os.WriteFile(p, []byte("vault = \"/from/file\"\ndb = \"/file.db\"\n"), 0o644)
	for _, tc := range []struct {
		name      string
		env       map[string]string
		vault, db string
	}{
		{"file", map[string]string{"HOME": "/h"}, "/from/file", "/file.db"},
		{"env over file", map[string]string{"HOME": "/h", "VAULTCTX_VAULT": "/from/env", "VAULTCTX_DB": "/env.db"}, "/from/env", "/env.db"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(p, env(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if c.Vault != tc.vault || c.DB != tc.db {
				t.Errorf("got vault %q db %q", c.Vault, c.DB)
			}
		})
	}
}

func TestDefaultsAndXDG(t *testing.T) {
	for _, tc := range []struct {
		name       string
		env        map[string]string
		config, db string
	}{
		{"home", map[string]string{"HOME": "/h"}, "/h/.config/vaultctx/config.toml", "/h/.local/share/vaultctx/index.db"},
		{"xdg", map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d"}, "/c/vaultctx/config.toml", "/d/vaultctx/index.db"},
		{"relative xdg ignored", map[string]string{"HOME": "/h", "XDG_DATA_HOME": "rel"}, "/h/.config/vaultctx/config.toml", "/h/.local/share/vaultctx/index.db"},
		{"explicit", map[string]string{"HOME": "/h", "VAULTCTX_DB": "/x.db"}, "/h/.config/vaultctx/config.toml", "/x.db"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DefaultPath(env(tc.env)); got != tc.config {
				t.Errorf("DefaultPath = %q, want %q", got, tc.config)
			}
			c, err := Load("", env(tc.env)) // the default file does not exist: defaults
			if err != nil {
				t.Fatal(err)
			}
			if c.DB != tc.db || c.Search.K != 10 {
				t.Errorf("DB = %q, want %q", c.DB, tc.db)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"unknown key", "vault = \"/v\"\nvualt = 1\n", `unknown key "vualt"`},
		{"unknown nested", "[search]\nkk = 3\n", `unknown key "search.kk"`},
		{"negative k", "[search]\nk = -1\n", "search.k"},
		{"wrong type", "max_file_bytes = \"big\"\n", "max_file_bytes"},
		{"bad toml", "vault = \n", "config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
	if _, err := Load("/nonexistent/config.toml", env(nil)); err == nil {
		t.Error("missing explicit config file: no error")
	}
}
