package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/vaultctx/vaultctx/core/vault"
)

// Config is the whole configuration. TOML keys are given in the field
// comments.
type Config struct {
	Vault        string   `toml:"vault"`          // vault root directory
	DB           string   `toml:"db"`             // index file
	Model        string   `toml:"model"`          // embedding model directory ("" = none configured)
	Include      []string `toml:"include"`        // folder allowlist (empty = everything)
	Exclude      []string `toml:"exclude"`        // folder denylist, on top of the dot-folders
	Extensions   []string `toml:"extensions"`     // file extensions indexed, default [".md"]
	MaxFileBytes int64    `toml:"max_file_bytes"` // files larger than this are skipped, default 5 MiB
	Search       Search   `toml:"search"`
	Hooks        Hooks    `toml:"hooks"`
}

// Search is the [search] table.
type Search struct {
	K            int        `toml:"k"`             // results, default 10
	Candidates   int        `toml:"candidates"`    // candidates per leg, default 30
	RRFK         float64    `toml:"rrf_k"`         // RRF k, default 60
	BM25Weight   float64    `toml:"bm25_weight"`   // RRF weight of BM25, default 1.0
	VectorWeight float64    `toml:"vector_weight"` // RRF weight of KNN, default 1.0
	Columns      [3]float64 `toml:"bm25_columns"`  // BM25 weights of text, section, heading context: default [1.0, 0.5, 0.3]
}

// Hooks is the [hooks] table.
type Hooks struct {
	DeadlineMS           int     `toml:"deadline_ms"`            // internal deadline of each hook, default 1500 ms
	PromptBudgetTokens   int     `toml:"prompt_budget_tokens"`   // UserPromptSubmit context budget, default 500 tokens
	PreToolBudgetTokens  int     `toml:"pretool_budget_tokens"`  // PreToolUse context budget, default 300 tokens
	OutputThresholdBytes int     `toml:"output_threshold_bytes"` // PostToolUse acts above this, default 4096 bytes
	OutputBudgetTokens   int     `toml:"output_budget_tokens"`   // PostToolUse extract budget, default 2000 tokens
	MinScore             float64 `toml:"min_score"`              // relevance floor: cosine a vector-only best hit needs (0 = built-in default)
}

// DefaultMaxFileBytes is the default size cap: 5 MiB.
const DefaultMaxFileBytes = 5 << 20

// Defaults returns the built-in configuration.
func Defaults() Config {
	return Config{
		Extensions:   []string{".md"},
		MaxFileBytes: DefaultMaxFileBytes,
		Search: Search{K: 10, Candidates: 30, RRFK: 60, BM25Weight: 1, VectorWeight: 1,
			Columns: [3]float64{1.0, 0.5, 0.3}},
		Hooks: Hooks{DeadlineMS: 1500, PromptBudgetTokens: 500, PreToolBudgetTokens: 300,
			OutputThresholdBytes: 4096, OutputBudgetTokens: 2000},
	}
}

// Parse reads a TOML config on top of Defaults. Keys absent from the file
// keep their defaults. Errors name the offending key: an unknown key, a
// value of the wrong type, or an invalid value (such as a negative k).
func Parse(r io.Reader) (Config, error) {
	c := Defaults()
	md, err := toml.NewDecoder(r).Decode(&c)
	if err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return c, fmt.Errorf("config: unknown key %q", strings.Join(keys, `", "`))
	}
	return c, c.validate()
}

func (c Config) validate() error {
	bad := func(key string, v any) error { return fmt.Errorf("config: invalid %s = %v", key, v) }
	switch {
	case c.MaxFileBytes <= 0:
		return bad("max_file_bytes", c.MaxFileBytes)
	case c.Search.K <= 0:
		return bad("search.k", c.Search.K)
	case c.Search.Candidates <= 0:
		return bad("search.candidates", c.Search.Candidates)
	case c.Search.RRFK <= 0:
		return bad("search.rrf_k", c.Search.RRFK)
	case c.Search.BM25Weight < 0:
		return bad("search.bm25_weight", c.Search.BM25Weight)
	case c.Search.VectorWeight < 0:
		return bad("search.vector_weight", c.Search.VectorWeight)
	case c.Hooks.DeadlineMS <= 0:
		return bad("hooks.deadline_ms", c.Hooks.DeadlineMS)
	case c.Hooks.PromptBudgetTokens <= 0:
		return bad("hooks.prompt_budget_tokens", c.Hooks.PromptBudgetTokens)
	case c.Hooks.PreToolBudgetTokens <= 0:
		return bad("hooks.pretool_budget_tokens", c.Hooks.PreToolBudgetTokens)
	case c.Hooks.OutputThresholdBytes <= 0:
		return bad("hooks.output_threshold_bytes", c.Hooks.OutputThresholdBytes)
	case c.Hooks.OutputBudgetTokens <= 0:
		return bad("hooks.output_budget_tokens", c.Hooks.OutputBudgetTokens)
	}
	for _, w := range c.Search.Columns {
		if w < 0 {
			return bad("search.bm25_columns", c.Search.Columns)
		}
	}
	if err := c.Rules().Validate(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

// Load reads the config file at path ("" = DefaultPath) and applies the
// environment (VAULTCTX_VAULT, VAULTCTX_DB, VAULTCTX_MODEL). A missing file
// at the default path means defaults; a missing file at an explicit path is
// an error. "~/" is expanded, and relative paths in the file are resolved
// against the file's directory. An empty DB becomes DefaultDB.
func Load(path string, getenv func(string) string) (Config, error) {
	explicit := path != "" || getenv("VAULTCTX_CONFIG") != ""
	if path == "" {
		path = DefaultPath(getenv)
	}
	c := Defaults()
	f, err := os.Open(path)
	switch {
	case err == nil:
		c, err = Parse(f)
		f.Close()
		if err != nil {
			return c, fmt.Errorf("%s: %w", path, err)
		}
		base, _ := filepath.Abs(filepath.Dir(path))
		for _, p := range []*string{&c.Vault, &c.DB, &c.Model} {
			*p = resolve(*p, base, getenv)
		}
	case errors.Is(err, os.ErrNotExist) && !explicit:
	default:
		return c, fmt.Errorf("config: %w", err)
	}
	for env, dst := range map[string]*string{"VAULTCTX_VAULT": &c.Vault, "VAULTCTX_DB": &c.DB, "VAULTCTX_MODEL": &c.Model} {
		if v := getenv(env); v != "" {
			*dst = resolve(v, "", getenv)
		}
	}
	if c.DB == "" {
		c.DB = DefaultDB(getenv)
	}
	return c, nil
}

// resolve expands "~/" and makes a relative path absolute against base
// (when base is not "").
func resolve(p, base string, getenv func(string) string) string {
	if p == "" {
		return p
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = filepath.Join(home(getenv), p[1:])
	}
	if base != "" && !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return p
}

func home(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

func xdg(getenv func(string) string, env, def string) string {
	if v := getenv(env); v != "" && filepath.IsAbs(v) {
		return v
	}
	return filepath.Join(home(getenv), def)
}

// DefaultPath is the config file: $VAULTCTX_CONFIG, else
// $XDG_CONFIG_HOME/vaultctx/config.toml (XDG default ~/.config).
func DefaultPath(getenv func(string) string) string {
	if p := getenv("VAULTCTX_CONFIG"); p != "" {
		return p
	}
	return filepath.Join(xdg(getenv, "XDG_CONFIG_HOME", ".config"), "vaultctx", "config.toml")
}

// DefaultDB is the index file: $VAULTCTX_DB, else
// $XDG_DATA_HOME/vaultctx/index.db (XDG default ~/.local/share).
func DefaultDB(getenv func(string) string) string {
	if p := getenv("VAULTCTX_DB"); p != "" {
		return p
	}
	return filepath.Join(DataDir(getenv), "index.db")
}

// DataDir is $XDG_DATA_HOME/vaultctx (XDG default ~/.local/share).
func DataDir(getenv func(string) string) string {
	return filepath.Join(xdg(getenv, "XDG_DATA_HOME", ".local/share"), "vaultctx")
}

// CacheDir is $XDG_CACHE_HOME/vaultctx (XDG default ~/.cache).
func CacheDir(getenv func(string) string) string {
	return filepath.Join(xdg(getenv, "XDG_CACHE_HOME", ".cache"), "vaultctx")
}

// StateDir is $XDG_STATE_HOME/vaultctx (XDG default ~/.local/state).
func StateDir(getenv func(string) string) string {
	return filepath.Join(xdg(getenv, "XDG_STATE_HOME", ".local/state"), "vaultctx")
}

// Rules returns the vault walking rules of c.
func (c Config) Rules() vault.Rules {
	return vault.Rules{Include: c.Include, Exclude: c.Exclude, Extensions: c.Extensions, MaxFileBytes: c.MaxFileBytes}
}
