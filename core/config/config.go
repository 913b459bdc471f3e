package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os/user"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/vaultctx/vaultctx/core/internal/fsx"
	"github.com/vaultctx/vaultctx/core/internal/xdg"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/vault"
)

// Config is the whole configuration. The TOML key of each field is in its
// struct tag; testdata/full.toml documents them all.
type Config struct {
	Vault        string   `toml:"vault"`          // vault root folder ("" = none configured)
	DB           string   `toml:"db"`             // index file; Load fills in DefaultDB when empty
	Model        string   `toml:"model"`          // embedding model folder ("" = none configured)
	Include      []string `toml:"include"`        // folder allowlist (empty = everything); see package vault
	Exclude      []string `toml:"exclude"`        // folder denylist, on top of the dot-folders
	Extensions   []string `toml:"extensions"`     // note file extensions, default [".md"]; Parse normalises "md" to ".md"
	MaxFileBytes int64    `toml:"max_file_bytes"` // files larger than this many bytes are skipped, default 5 MiB
	Search       Search   `toml:"search"`
	Hooks        Hooks    `toml:"hooks"`

	// File is the config file Load read, or "" when it read none (the
	// default file did not exist). It is not a TOML key.
	File string `toml:"-"`
}

// Search is the [search] table: ranking and fusion.
type Search struct {
	K            int        `toml:"k"`             // results returned, default 10
	Candidates   int        `toml:"candidates"`    // candidates fetched per leg (BM25, vector) before fusion, default 30
	RRFK         float64    `toml:"rrf_k"`         // RRF k constant (Cormack et al. 2009), default 60
	BM25Weight   float64    `toml:"bm25_weight"`   // RRF weight of the BM25 leg, default 1.0
	VectorWeight float64    `toml:"vector_weight"` // RRF weight of the vector leg; absent = the index's calibration (WithFusion), else DefaultVectorWeight
	Columns      [3]float64 `toml:"bm25_columns"`  // FTS5 bm25() weights of chunk text, section, heading context: default [1.0, 0.5, 0.3]
	MinCosine    float64    `toml:"min_cosine"`    // vector hits below this cosine are left out of the fusion, default DefaultMinCosine
	BM25Lead     int        `toml:"bm25_lead"`     // BM25's first N hits stay first in hybrid mode, default DefaultBM25Lead (0 = plain RRF)

	// VectorWeightSet records that the file set vector_weight (Parse sets
	// it; it is not a key). A vector_weight the file sets wins over the
	// index's fusion calibration; an absent one is calibrated (see
	// WithFusion), and is DefaultVectorWeight on an index without a
	// calibration.
	VectorWeightSet bool `toml:"-"`
	// MinCosineSet records that the file set min_cosine, for reports of
	// where it came from; min_cosine is not calibrated.
	MinCosineSet bool `toml:"-"`
}

// The origins of a fusion setting, as WithFusion reports them.
const (
	FromConfig     = "config"     // set in the config file
	FromCalibrated = "calibrated" // the index's fusion calibration
	FromDefault    = "default"    // the built-in default: the index has no calibration
)

// WithFusion returns s with the vector weight of the index's fusion
// calibration f (ok: the index has one, engine.Engine.Fusion) unless the
// file set vector_weight, and where vector_weight came from (FromConfig,
// FromCalibrated or FromDefault). min_cosine is not calibrated (see
// retrieve.Fusion.BackgroundCosine): it stays the file's or
// DefaultMinCosine.
func (s Search) WithFusion(f retrieve.Fusion, ok bool) (out Search, weightFrom string) {
	weightFrom = FromDefault
	if s.VectorWeightSet {
		weightFrom = FromConfig
	} else if ok {
		s.VectorWeight, weightFrom = f.VectorWeight, FromCalibrated
	}
	return s, weightFrom
}

// The hybrid ranking defaults below were chosen together on the train
// splits only (SciFact train, 809 queries; the vault reference set, 73
// queries over ../shared/corpora/large) with ../shared/models/glove-120k,
// and are measured by `vaultctx eval` (eval/README.md). The rule is
// weighted RRF (Cormack, Clarke and Büttcher, SIGIR 2009) with k = 60 and
// 30 candidates per leg, where the vector leg's weight is below BM25's, as
// in weighted rank fusion that weights each input by its measured quality
// (Aslam and Montague, "Models for metasearch", SIGIR 2001): the GloVe
// vector leg alone scores nDCG@10 0.279 (SciFact) and 0.114 (vault)
// against BM25's 0.695 and 0.627, ratios 0.40 and 0.18.
//
// nDCG@10 on the full train sets, hybrid against BM25 (0.6948, 0.6269):
//
//	vector_weight 1.0, min_cosine 0.7, bm25_lead 0 (the old default): 0.6621, 0.5118
//	vector_weight 0.2, min_cosine 0.7, bm25_lead 0:                   0.6772, 0.6162
//	vector_weight 0.2, min_cosine 0,   bm25_lead 1:                   0.6943, 0.6209
//	vector_weight 0.2, min_cosine 0.7, bm25_lead 1 (the defaults):    0.6948, 0.6301
//
// and the concept query "how to handle authentication failures" still
// brings up the section BM25 alone ranks 15th (SSH remoting,
// Authentication) at hybrid rank 2. No setting of weight, floor or depth
// without bm25_lead reached BM25 on both sets while keeping that section
// in the first 10.
const (
	// DefaultVectorWeight is search.vector_weight on an index without a
	// fusion calibration (BM25 only, built before calibrations, or too
	// small to calibrate); an index with one uses its calibrated weight
	// (retrieve.CalibrateFusion) unless the file sets the key. 0.2 is the
	// largest weight measured (0.1 to 1.0) at which hybrid search, with
	// the other defaults, is at least as good as BM25 on both train sets;
	// it is about the vault set's quality ratio of the two legs (0.18).
	DefaultVectorWeight = 0.2
	// DefaultMinCosine is the default search.min_cosine. With GloVe most
	// nearest neighbours are noise (of the vector hits BM25 did not find,
	// 0.1% on SciFact and 0.7% on the vault set belong to a judged
	// document), and the floor keeps the weakest out of the fusion:
	// without it the defaults score 0.6943 and 0.6209 (table above). The
	// value is the cosine of a GloVe model; another model has another
	// scale.
	DefaultMinCosine = 0.7
	// DefaultBM25Lead is the default search.bm25_lead: BM25's best hit
	// stays first. On the train sets it is relevant 60% (SciFact) and 52%
	// (vault) of the time, against 6.1% and 7.5% for a hit at BM25 ranks
	// 2 to 30 that the vector leg also found; RRF with k = 60 scores
	// BM25's ranks 1 and 2 almost alike, so without the lead any vector
	// support would swap them.
	DefaultBM25Lead = 1
)

// Summary describes the ranking keys of the table by their TOML names, for
// reports: "candidates 30, rrf_k 60, bm25_weight 1, vector_weight 0.2,
// min_cosine 0.7, bm25_lead 1, bm25_columns [1 0.5 0.3]". k is left out
// (callers such as eval choose their own result count).
func (s Search) Summary() string {
	return fmt.Sprintf("candidates %d, rrf_k %g, bm25_weight %g, vector_weight %g, min_cosine %g, bm25_lead %d, bm25_columns %g",
		s.Candidates, s.RRFK, s.BM25Weight, s.VectorWeight, s.MinCosine, s.BM25Lead, s.Columns)
}

// Options returns the retrieval options of this [search] table for a mode
// ("" = hybrid) and a result count (0 = K).
func (s Search) Options(mode string, k int) retrieve.Options {
	if k <= 0 {
		k = s.K
	}
	return retrieve.Options{Mode: mode, K: k, Candidates: s.Candidates, RRFK: s.RRFK,
		BM25Weight: s.BM25Weight, VectorWeight: s.VectorWeight, MinCosine: s.MinCosine, BM25Lead: s.BM25Lead}
}

// Hooks is the [hooks] table: the Claude Code hooks' time and size budgets.
type Hooks struct {
	DeadlineMS           int `toml:"deadline_ms"`            // internal deadline of each hook, default 1500 ms
	PromptBudgetTokens   int `toml:"prompt_budget_tokens"`   // UserPromptSubmit context budget, default 500 tokens
	PreToolBudgetTokens  int `toml:"pretool_budget_tokens"`  // PreToolUse context budget, default 300 tokens
	OutputThresholdBytes int `toml:"output_threshold_bytes"` // PostToolUse acts on outputs above this, default 4096 bytes
	OutputBudgetTokens   int `toml:"output_budget_tokens"`   // PostToolUse extract budget, default 2000 tokens
	// The relevance floor of the context hooks (core/recall.Floor, FLOOR.md):
	// a BM25 hit must hold MinEvidence of the prompt's term weight (0 =
	// recall.DefaultMinEvidence, 2.5 rare-term units) and MinCoverage of it
	// (0 = recall.DefaultMinCoverage, 0.3); MinScore, when above 0, lets a
	// vector hit of at least that cosine pass on its own (0 = never).
	MinEvidence float64 `toml:"min_evidence"`
	MinCoverage float64 `toml:"min_coverage"`
	MinScore    float64 `toml:"min_score"`

	// The three switches, one per hook and named after it (see
	// HookNames): nil (the key absent) and true mean on, false means off.
	// An off hook answers nothing, and `vaultctx hooks install` does not
	// wire it. Read them with Enabled.
	UserPrompt  *bool `toml:"userprompt"`  // the UserPromptSubmit hook, vaultctx-userprompt
	PreToolUse  *bool `toml:"pretooluse"`  // the PreToolUse hook, vaultctx-pretooluse
	PostToolUse *bool `toml:"posttooluse"` // the PostToolUse hook, vaultctx-posttooluse

	// OutputPassthrough lists command prefixes whose Bash output the
	// PostToolUse hook never condenses, e.g. ["terraform plan", "git
	// diff"]. A prefix is compared word by word (shell quotes removed)
	// with the start of every command of the line: each stage of a
	// pipeline and each command of a &&, ||, ; or & list, after leading
	// VAR=value assignments and the wrappers sudo, env, time, nohup, exec
	// and command; a path's base name counts for the program
	// (core/posttool implements it). Default: none. Each prefix needs at
	// least one word.
	OutputPassthrough []string `toml:"output_passthrough"`
}

// The hook names: the [hooks] keys of the switches, each hook binary's
// name without "vaultctx-", and the names the installer's flags and
// `vaultctx hooks install --only` take.
const (
	HookUserPrompt  = "userprompt"  // UserPromptSubmit
	HookPreToolUse  = "pretooluse"  // PreToolUse
	HookPostToolUse = "posttooluse" // PostToolUse
)

// HookNames returns the hook names in the order the hooks template wires
// them: userprompt, pretooluse, posttooluse.
func HookNames() []string {
	return []string{HookUserPrompt, HookPreToolUse, HookPostToolUse}
}

// Enabled reports whether the hook called name (HookUserPrompt,
// HookPreToolUse, HookPostToolUse) is on: true unless its switch is set to
// false. An unknown name is on: nothing can turn it off.
func (h Hooks) Enabled(name string) bool {
	var v *bool
	switch name {
	case HookUserPrompt:
		v = h.UserPrompt
	case HookPreToolUse:
		v = h.PreToolUse
	case HookPostToolUse:
		v = h.PostToolUse
	}
	return v == nil || *v
}

// DefaultMaxFileBytes is the default size cap: 5 MiB, the same as
// vault.DefaultMaxFileBytes.
const DefaultMaxFileBytes = vault.DefaultMaxFileBytes

// Environment variables read by Load and the path functions.
const (
	EnvConfig = "VAULTCTX_CONFIG" // config file
	EnvVault  = "VAULTCTX_VAULT"  // overrides `vault`
	EnvDB     = "VAULTCTX_DB"     // overrides `db`
	EnvModel  = "VAULTCTX_MODEL"  // overrides `model`
)

// ErrUnknownKey is returned (wrapped) by Parse and Load when the file holds
// a key vaultctx does not read; the message names the key and, when one is
// close, the key that was probably meant.
var ErrUnknownKey = errors.New("unknown key")

// ErrInvalid is returned (wrapped) by Parse and Load when a value is out of
// range; the message names the key, the value and the allowed range.
var ErrInvalid = errors.New("invalid")

// Defaults returns the built-in configuration. Each call returns new slices,
// so callers may modify the result.
func Defaults() Config {
	return Config{
		Extensions:   vault.DefaultExtensions(),
		MaxFileBytes: DefaultMaxFileBytes,
		Search: Search{
			K:            10,
			Candidates:   30,
			RRFK:         60,
			BM25Weight:   1,
			VectorWeight: DefaultVectorWeight,
			Columns:      [3]float64{1.0, 0.5, 0.3},
			MinCosine:    DefaultMinCosine,
			BM25Lead:     DefaultBM25Lead,
		},
		Hooks: Hooks{
			DeadlineMS:           1500,
			PromptBudgetTokens:   500,
			PreToolBudgetTokens:  300,
			OutputThresholdBytes: 4096,
			OutputBudgetTokens:   2000,
			// 0 = recall's defaults, measured in core/recall/FLOOR.md.
			MinEvidence: 0, MinCoverage: 0, MinScore: 0,
		},
	}
}

// Parse reads a TOML config on top of Defaults: keys absent from the file
// keep their defaults, and a list in the file replaces the default list.
// Paths are returned as written (Load expands and resolves them).
//
// Errors name the offending key: a TOML syntax error (with its line), a
// value of the wrong type, an unknown key (ErrUnknownKey; keys are
// case-sensitive), or an out-of-range value or bad folder rule (ErrInvalid,
// vault.ErrBadRule).
func Parse(r io.Reader) (Config, error) {
	c, err := parse(r)
	if err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	return c, nil
}

func parse(r io.Reader) (Config, error) {
	c := Defaults()
	md, err := toml.NewDecoder(r).Decode(&c)
	if err != nil {
		return Defaults(), err
	}
	if err := unknownKeys(md); err != nil {
		return Defaults(), err
	}
	c.Search.VectorWeightSet = md.IsDefined("search", "vector_weight")
	c.Search.MinCosineSet = md.IsDefined("search", "min_cosine")
	for i, e := range c.Extensions {
		n, err := vault.NormalizeExtension(e)
		if err != nil {
			return Defaults(), fmt.Errorf("extensions[%d] %q: %w", i, e, err)
		}
		c.Extensions[i] = n
	}
	if err := c.Validate(); err != nil {
		return Defaults(), err
	}
	return c, nil
}

// knownKeys lists every dotted key Config reads, from its toml tags:
// "vault", ..., "search", "search.k", ...
func knownKeys() []string {
	var keys []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if name == "" || name == "-" {
				continue
			}
			keys = append(keys, prefix+name)
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, prefix+name+".")
			}
		}
	}
	walk(reflect.TypeFor[Config](), "")
	return keys
}

// unknownKeys returns an error naming every key of the file that Config
// does not read exactly (the TOML decoder itself also accepts keys that
// differ in case; we do not). A key below an unknown table is not listed
// separately.
func unknownKeys(md toml.MetaData) error {
	known := knownKeys()
	var bad []string
	for _, k := range md.Keys() {
		s := k.String()
		if slices.Contains(known, s) {
			continue
		}
		if slices.ContainsFunc(bad, func(b string) bool { return strings.HasPrefix(s, b+".") }) {
			continue
		}
		bad = append(bad, s)
	}
	if len(bad) == 0 {
		return nil
	}
	msgs := make([]string, len(bad))
	for i, b := range bad {
		msgs[i] = fmt.Sprintf("%q", b)
		if s := suggest(b, known); s != "" {
			msgs[i] += fmt.Sprintf(" (did you mean %q?)", s)
		}
	}
	return fmt.Errorf("%w %s", ErrUnknownKey, strings.Join(msgs, ", "))
}

// suggest returns the known key closest to k by edit distance, compared case
// insensitively, when it is close enough to be a typo (at most a third of
// its length, and at most 3 edits); the key under another table ("k" for
// "search.k") also counts.
func suggest(k string, known []string) string {
	best, bestD := "", 4
	lk := strings.ToLower(k)
	for _, c := range known {
		lc := strings.ToLower(c)
		d := editDistance(lk, lc)
		if _, leaf, ok := strings.Cut(lc, "."); ok && leaf == lk {
			d = 0
		}
		if d < bestD && d <= max(1, len(c)/3) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the optimal-string-alignment distance between a and b,
// in bytes: Levenshtein plus transposition of adjacent bytes as one edit,
// so "vualt" is one edit from "vault".
func editDistance(a, b string) int {
	pp := make([]int, len(b)+1) // row i-2
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], pp[j-2]+1)
			}
		}
		pp, prev, cur = prev, cur, pp
	}
	return prev[len(b)]
}

// Validate checks every value's range and the folder rules, as Parse does
// for a file; call it again after applying flags. The error names the key
// and wraps ErrInvalid (a value out of range) or vault.ErrBadRule (an
// include, exclude or extension rule), e.g.
// "invalid search.k = 0: must be at least 1".
func (c Config) Validate() error {
	type check struct {
		key string
		v   float64
		ok  bool
		rng string
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	s, h := c.Search, c.Hooks
	checks := []check{
		{"max_file_bytes", float64(c.MaxFileBytes), c.MaxFileBytes > 0, "must be more than 0 bytes"},
		{"search.k", float64(s.K), s.K >= 1, "must be at least 1"},
		{"search.candidates", float64(s.Candidates), s.Candidates >= 1, "must be at least 1"},
		{"search.rrf_k", s.RRFK, finite(s.RRFK) && s.RRFK > 0, "must be a number above 0"},
		{"search.bm25_weight", s.BM25Weight, finite(s.BM25Weight) && s.BM25Weight >= 0, "must be 0 or more"},
		{"search.vector_weight", s.VectorWeight, finite(s.VectorWeight) && s.VectorWeight >= 0, "must be 0 or more"},
		{"search.min_cosine", s.MinCosine, finite(s.MinCosine) && s.MinCosine >= 0 && s.MinCosine <= 1, "must be between 0 and 1"},
		{"search.bm25_lead", float64(s.BM25Lead), s.BM25Lead >= 0, "must be 0 or more"},
		{"hooks.deadline_ms", float64(h.DeadlineMS), h.DeadlineMS >= 1, "must be at least 1 ms"},
		{"hooks.prompt_budget_tokens", float64(h.PromptBudgetTokens), h.PromptBudgetTokens >= 1, "must be at least 1 token"},
		{"hooks.pretool_budget_tokens", float64(h.PreToolBudgetTokens), h.PreToolBudgetTokens >= 1, "must be at least 1 token"},
		{"hooks.output_threshold_bytes", float64(h.OutputThresholdBytes), h.OutputThresholdBytes >= 1, "must be at least 1 byte"},
		{"hooks.output_budget_tokens", float64(h.OutputBudgetTokens), h.OutputBudgetTokens >= 1, "must be at least 1 token"},
		{"hooks.min_score", h.MinScore, finite(h.MinScore) && h.MinScore >= 0 && h.MinScore <= 1, "must be between 0 and 1 (a cosine)"},
		{"hooks.min_evidence", h.MinEvidence, finite(h.MinEvidence) && h.MinEvidence >= 0, "must be 0 or more (rare-term units)"},
		{"hooks.min_coverage", h.MinCoverage, finite(h.MinCoverage) && h.MinCoverage >= 0 && h.MinCoverage <= 1, "must be between 0 and 1 (a share)"},
	}
	for i, w := range s.Columns {
		checks = append(checks, check{fmt.Sprintf("search.bm25_columns[%d]", i), w, finite(w) && w >= 0, "must be 0 or more"})
	}
	for _, ck := range checks {
		if !ck.ok {
			return fmt.Errorf("%w %s = %v: %s", ErrInvalid, ck.key, ck.v, ck.rng)
		}
	}
	for i, p := range h.OutputPassthrough {
		if strings.TrimSpace(p) == "" {
			return fmt.Errorf("%w hooks.output_passthrough[%d] = %q: must name a command (at least one word)", ErrInvalid, i, p)
		}
	}
	if s.BM25Weight == 0 && s.VectorWeight == 0 {
		return fmt.Errorf("%w search.bm25_weight and search.vector_weight: both are 0; at least one must be above 0", ErrInvalid)
	}
	if s.Columns == [3]float64{} {
		return fmt.Errorf("%w search.bm25_columns: all are 0; at least one must be above 0", ErrInvalid)
	}
	return c.Rules().Validate()
}

// MaxFileBytes bounds the config file Load reads (bytes): a config is a
// few hundred bytes, and a hook must not read /dev/zero until it runs out
// of memory.
const MaxFileBytes = 1 << 20

// Load returns the configuration: Defaults, then the TOML file at path, then
// the environment (VAULTCTX_VAULT, VAULTCTX_DB, VAULTCTX_MODEL). Flags are
// the caller's to apply on top.
//
// path "" means DefaultPath(getenv). A missing file is fine at the XDG
// default path (Load returns the defaults and File ""), and an error
// wrapping fs.ErrNotExist when the path was given explicitly, as an argument
// or in $VAULTCTX_CONFIG. "~" and "~/" at the start of a path are expanded
// with $HOME; relative vault, db and model paths in the file are made
// absolute against the file's folder (relative paths from the environment
// are left relative to the working folder). DB "" after all of this becomes
// DefaultDB(getenv). getenv is os.Getenv outside tests. Parse errors are
// returned wrapped with the file's path; a config that is not a regular
// file (a FIFO, a device) or holds more than MaxFileBytes is an error
// (fsx.ErrNotRegular, fsx.ErrTooLarge), found without waiting or reading
// it all.
func Load(path string, getenv func(string) string) (Config, error) {
	explicit := path != "" || getenv(EnvConfig) != ""
	if path == "" {
		p, err := defaultPath(getenv)
		if err != nil {
			return Defaults(), fmt.Errorf("config: %w", err)
		}
		path = p
	}
	path = expandHome(path, getenv)
	c := Defaults()
	data, err := fsx.ReadRegular(path, MaxFileBytes)
	switch {
	case err == nil:
		c, err = parse(strings.NewReader(string(data)))
		if err != nil {
			return Defaults(), fmt.Errorf("config %s: %w", path, err)
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return Defaults(), fmt.Errorf("config %s: %w", path, err)
		}
		c.File = abs
		for _, p := range []*string{&c.Vault, &c.DB, &c.Model} {
			*p = resolve(*p, filepath.Dir(abs), getenv)
		}
	case errors.Is(err, fs.ErrNotExist) && !explicit:
	default:
		return Defaults(), fmt.Errorf("config: %w", err)
	}
	for _, o := range []struct {
		env string
		dst *string
	}{{EnvVault, &c.Vault}, {EnvDB, &c.DB}, {EnvModel, &c.Model}} {
		if v := getenv(o.env); v != "" {
			*o.dst = expandHome(v, getenv)
		}
	}
	if c.DB == "" {
		db, err := defaultDB(getenv)
		if err != nil {
			return Defaults(), fmt.Errorf("config: %w", err)
		}
		c.DB = db
	}
	return c, nil
}

// resolve expands "~/" in p and makes a relative p absolute against base.
func resolve(p, base string, getenv func(string) string) string {
	if p == "" {
		return p
	}
	p = expandHome(p, getenv)
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return p
}

// ExpandPath returns a path given on the command line as an absolute
// path: a leading "~" or "~/" is the home folder ($HOME, else the user
// database's), as in the config file, and a relative path is relative to
// the working directory. It returns p with only "~" expanded when the
// working directory cannot be read.
func ExpandPath(p string, getenv func(string) string) string {
	p = expandHome(p, getenv)
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// expandHome replaces a leading "~" or "~/" with the home folder. "~user/"
// is left alone.
func expandHome(p string, getenv func(string) string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		return filepath.Join(home(getenv), p[1:])
	}
	return p
}

// home is $HOME, else the home folder in the user database.
func home(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return ""
}

// xdgEnv is getenv with HOME filled in by home when unset, so the XDG
// defaults follow the same home folder as "~" expansion.
func xdgEnv(getenv func(string) string) func(string) string {
	return func(k string) string {
		if k == "HOME" {
			return home(getenv)
		}
		return getenv(k)
	}
}

// DefaultPath returns the config file to read: $VAULTCTX_CONFIG (with "~/"
// expanded), else $XDG_CONFIG_HOME/vaultctx/config.toml, with
// XDG_CONFIG_HOME defaulting to ~/.config. It returns "" when no home
// folder is known (Load then reports the error).
func DefaultPath(getenv func(string) string) string {
	p, _ := defaultPath(getenv)
	return p
}

func defaultPath(getenv func(string) string) (string, error) {
	if p := getenv(EnvConfig); p != "" {
		return expandHome(p, getenv), nil
	}
	dir, err := xdg.ConfigDir(xdgEnv(getenv))
	if err != nil {
		return "", fmt.Errorf("config path: %w", err)
	}
	return filepath.Join(dir, "config.toml"), nil
}

// DefaultDB returns the index file used when none is configured:
// $VAULTCTX_DB (with "~/" expanded), else DataDir/index.db. It returns ""
// when no home folder is known (Load then reports the error).
func DefaultDB(getenv func(string) string) string {
	p, _ := defaultDB(getenv)
	return p
}

func defaultDB(getenv func(string) string) (string, error) {
	if p := getenv(EnvDB); p != "" {
		return expandHome(p, getenv), nil
	}
	dir, err := xdg.DataDir(xdgEnv(getenv))
	if err != nil {
		return "", fmt.Errorf("index path: %w", err)
	}
	return filepath.Join(dir, "index.db"), nil
}

// DataDir returns $XDG_DATA_HOME/vaultctx, with XDG_DATA_HOME defaulting to
// ~/.local/share: the index and downloaded models. It returns "" when no
// home folder is known.
func DataDir(getenv func(string) string) string {
	dir, _ := xdg.DataDir(xdgEnv(getenv))
	return dir
}

// Rules returns the vault walking rules of c (include, exclude, extensions,
// size cap) for vault.Walk and vault.Rules.Match.
func (c Config) Rules() vault.Rules {
	return vault.Rules{Include: c.Include, Exclude: c.Exclude, Extensions: c.Extensions, MaxFileBytes: c.MaxFileBytes}
}
