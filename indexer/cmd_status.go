package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/vaultctx/vaultctx/core/engine"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/recall"
	"github.com/vaultctx/vaultctx/core/refresh"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/store"
)

// statusCmd is `vaultctx status`.
type statusCmd struct {
	DB   string `help:"Index file (default: as for index)." type:"path" placeholder:"FILE"`
	JSON bool   `name:"json" help:"Print the status as JSON."`
}

// statusReport is the JSON form of `vaultctx status`.
type statusReport struct {
	DB            string `json:"db"`
	Config        string `json:"config"`
	Vault         string `json:"vault"`
	Files         int    `json:"files"`
	Chunks        int    `json:"chunks"`
	Vectors       int    `json:"vectors"`
	DBBytes       int64  `json:"db_bytes"`
	LastIndexTime string `json:"last_index_time"`
	SchemaVersion string `json:"schema_version"`
	Model         string `json:"model"`
	ModelDir      string `json:"model_dir"`
	ModelHash     string `json:"model_hash"`
	VecAvailable  bool   `json:"vec_available"`
	// DiskFull is true when the index's disk has no space left, so it is
	// read as an immutable snapshot (exact: no WAL was pending).
	DiskFull bool `json:"disk_full"`
	// WALUnread is true when the index's folder is read-only to this user
	// and its WAL holds changes, which cannot be read from there
	// (store.ErrWALUnread): the counts leave them out.
	WALUnread bool `json:"wal_unread"`
	// RelevanceFloor is the context hooks' floor as `vaultctx index`
	// calibrated it (null for an index without one: built-in thresholds).
	RelevanceFloor *recall.Calibration `json:"relevance_floor"`
	// FloorOverride is the floor the config sets instead (hooks.min_evidence
	// above 0), as "min_evidence = X, min_coverage = Y"; "" when none.
	FloorOverride string `json:"relevance_floor_override,omitempty"`
	// Fusion is the fusion of hybrid search as `vaultctx index`
	// calibrated it (null for an index without one: the configured
	// vector_weight and min_cosine, or their defaults).
	Fusion  *retrieve.Fusion `json:"fusion"`
	Skipped []store.Skip     `json:"skipped"`
	// Unreadable lists files and folders that could not be read at the
	// last run; what was indexed of them is kept.
	Unreadable []store.Kept `json:"unreadable"`
	// Chunkless lists indexed notes that yield no chunk (empty, or only
	// skipped sections): no search can find them.
	Chunkless  []string       `json:"chunkless"`
	Problems   []store.Skip   `json:"problems"`
	Redactions map[string]int `json:"redactions"`
	// Freshness: the stat walk of the vault against the index
	// (refresh.Check), and the indexers running.
	Changed    changedReport `json:"changed_since_index"`
	Refreshing bool          `json:"refreshing"`  // an index run or a background refresh is under way
	IndexerPID int           `json:"indexer_pid"` // the process holding the index, 0 when none
	RefreshPID int           `json:"refresh_pid"` // the background refresh, 0 when none
	RefreshLog string        `json:"refresh_log"` // where the background refresh logs
}

// changedReport is what changed in the vault since the last index run.
type changedReport struct {
	Files    int      `json:"files"` // new + modified + deleted
	New      int      `json:"new"`
	Modified int      `json:"modified"`
	Deleted  int      `json:"deleted"`
	Examples []string `json:"examples"`        // a few of their paths
	Error    string   `json:"error,omitempty"` // why the walk could not run (a missing vault)
}

// Run prints what the index holds.
func (c *statusCmd) Run(g *globals) error {
	cfg, err := loadConfig(g)
	if err != nil {
		return err
	}
	db := orDefault(c.DB, cfg.DB)
	e, err := engine.Open(g.Ctx, db, engine.Options{ReadOnly: true})
	if err != nil {
		// No index yet (store.ErrNotIndexed) gets the hint to run an
		// index, with the vault and --db fitted to it (commandAdvice).
		return err
	}
	defer e.Close()
	st := e.Store()
	stats, err := st.Stats(g.Ctx)
	if err != nil {
		return err
	}
	r := statusReport{DB: db, Config: orDefault(g.ConfigPath, configPath()), Files: stats.Files, Chunks: stats.Chunks, Vectors: stats.Vectors,
		DBBytes: fileBytes(db), Skipped: stats.Skips, Problems: stats.Problems, VecAvailable: e.VecAvailable(),
		DiskFull: errors.Is(st.Fallback(), store.ErrDiskFull), WALUnread: errors.Is(st.Fallback(), store.ErrWALUnread)}
	for key, dst := range map[string]*string{store.MetaVault: &r.Vault, store.MetaLastIndexTime: &r.LastIndexTime, store.MetaSchemaVersion: &r.SchemaVersion,
		store.MetaModelName: &r.Model, store.MetaModelDir: &r.ModelDir, store.MetaModelHash: &r.ModelHash} {
		if *dst, err = st.Meta(g.Ctx, key); err != nil {
			return err
		}
	}
	if cal, ok := recall.LoadCalibration(g.Ctx, e); ok {
		r.RelevanceFloor = &cal
	}
	if f := recall.FloorOf(cfg); f.Clauses != nil {
		r.FloorOverride = fmt.Sprintf("min_evidence = %g, min_coverage = %g", f.Clauses[0].Evidence, f.Clauses[0].Coverage)
	}
	if f, ok := e.Fusion(g.Ctx); ok {
		r.Fusion = &f
	}
	if r.Redactions, err = st.Redactions(g.Ctx); err != nil {
		return err
	}
	if r.Unreadable, err = st.Unreadable(g.Ctx); err != nil {
		return err
	}
	if r.Chunkless, err = st.Chunkless(g.Ctx); err != nil {
		return err
	}
	if r.Skipped == nil {
		r.Skipped = []store.Skip{}
	}
	if r.Unreadable == nil {
		r.Unreadable = []store.Kept{}
	}
	if r.Chunkless == nil {
		r.Chunkless = []string{}
	}
	if r.Problems == nil {
		r.Problems = []store.Skip{}
	}
	fresh := cfg
	fresh.Vault, fresh.DB = orDefault(r.Vault, cfg.Vault), db
	fr, ferr := refresh.Check(g.Ctx, fresh, os.Getenv)
	ch := fr.Changes
	r.Changed = changedReport{Files: ch.Files(), New: ch.New, Modified: ch.Modified, Deleted: ch.Deleted, Examples: ch.Examples}
	if r.Changed.Examples == nil {
		r.Changed.Examples = []string{}
	}
	if ferr != nil {
		r.Changed.Error = ferr.Error()
	}
	r.Refreshing, r.IndexerPID, r.RefreshPID, r.RefreshLog = fr.Refreshing(), fr.Indexer, fr.Runner, fr.Log
	if c.JSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	fmt.Printf("index           %s (%s)\n", r.DB, humanBytes(r.DBBytes))
	if r.DiskFull {
		fmt.Printf("disk            full: the index is read as it is, and cannot be updated until space is freed\n")
	}
	if r.WALUnread {
		var wal int64
		if fi, err := os.Stat(db + "-wal"); err == nil {
			wal = fi.Size()
		}
		fmt.Printf("wal             %v (%s of WAL): what follows leaves them out; %s\n", store.ErrWALUnread, humanBytes(wal), advice(walUnreadFix, "", false, c.DB))
	}
	fmt.Printf("vault           %s\n", r.Vault)
	fmt.Printf("files           %d\n", r.Files)
	fmt.Printf("chunks          %d\n", r.Chunks)
	fmt.Printf("last index      %s%s\n", r.LastIndexTime, ago(r.LastIndexTime))
	switch {
	case r.Changed.Error != "":
		fmt.Printf("changed since   unknown: %s\n", r.Changed.Error)
	case r.Changed.Files == 0:
		fmt.Printf("changed since   nothing (stat walk of the vault)\n")
	default:
		fmt.Printf("changed since   %s (%d new, %d modified, %d deleted): %s%s\n", files(r.Changed.Files), r.Changed.New, r.Changed.Modified, r.Changed.Deleted,
			strings.Join(r.Changed.Examples, ", "), more(r.Changed.Files, len(r.Changed.Examples)))
	}
	readOnly := index.Writable(db)
	switch {
	case r.RefreshPID != 0:
		fmt.Printf("refresh         running in the background (pid %d, log %s)\n", r.RefreshPID, r.RefreshLog)
	case r.IndexerPID != 0:
		fmt.Printf("refresh         an indexer is running (pid %d)\n", r.IndexerPID)
	case r.Changed.Files > 0 && readOnly != nil:
		// No run of this user can take the lock: promise no refresh.
		fmt.Printf("refresh         not running: %v, so neither an index run nor a session start of yours refreshes; %s\n", readOnly, advice(readOnlyFix, "", false, c.DB))
	case r.Changed.Files > 0:
		// The run it names must read this index: advice adds --db (and
		// the vault flag when no run would find the vault by itself).
		_, known := index.KnownVault(g.Ctx, cfg.Vault, db)
		fmt.Printf("refresh         not running: %s\n", advice(refreshFix, "", !known, c.DB))
	default:
		fmt.Printf("refresh         not running\n")
	}
	fmt.Printf("schema version  %s\n", r.SchemaVersion)
	if r.ModelDir == "" {
		fmt.Printf("model           none (BM25 only)\n")
	} else {
		fmt.Printf("model           %s (%s)\n", r.Model, r.ModelDir)
	}
	fmt.Printf("vec_available   %t (%d vectors)\n", r.VecAvailable, r.Vectors)
	if r.FloorOverride != "" {
		fmt.Printf("relevance floor set by the config ([hooks] %s): a keyword hit holds that share of the prompt's term weight with that many rare-term units\n", r.FloorOverride)
	} else if r.RelevanceFloor != nil {
		fmt.Printf("relevance floor %s\n", r.RelevanceFloor)
	} else {
		fmt.Printf("relevance floor not calibrated (built-in thresholds); `vaultctx index --full` calibrates it\n")
	}
	search, weightFrom := cfg.Search.WithFusion(e.Fusion(g.Ctx))
	fusion := fmt.Sprintf("vector_weight %g (%s), min_cosine %g (%s)", search.VectorWeight, weightFrom, search.MinCosine, minCosineFrom(cfg.Search))
	if r.Fusion != nil {
		fusion += "; index calibration " + r.Fusion.String()
	} else if r.ModelDir != "" {
		fusion += "; not calibrated: `vaultctx index --full` calibrates it"
	}
	fmt.Printf("fusion          %s\n", fusion)
	if len(r.Redactions) > 0 {
		fmt.Println("credentials scrubbed:")
		rules := make([]string, 0, len(r.Redactions))
		for k := range r.Redactions {
			rules = append(rules, k)
		}
		sort.Strings(rules)
		for _, k := range rules {
			fmt.Printf("  %-32s %d\n", k, r.Redactions[k])
		}
	}
	var skipped []store.Skip
	for _, s := range r.Skipped {
		if !s.Unreadable {
			skipped = append(skipped, s)
		}
	}
	if len(skipped) > 0 {
		fmt.Printf("skipped files (%d):\n", len(skipped))
		for _, s := range skipped {
			fmt.Printf("  %s: %s\n", s.Path, s.Reason)
		}
	}
	if len(r.Unreadable) > 0 {
		fmt.Printf("unreadable, last indexed version kept (%d):\n", len(r.Unreadable))
		for _, k := range r.Unreadable {
			fmt.Printf("  %s: %s (%d indexed file%s kept)\n", k.Path, k.Reason, k.Files, plural(k.Files))
		}
	}
	if len(r.Chunkless) > 0 {
		fmt.Printf("notes that yield no chunk, not searchable (%d):\n", len(r.Chunkless))
		for i, p := range r.Chunkless {
			if i == maxListed {
				fmt.Printf("  ... and %d more (see --json)\n", len(r.Chunkless)-maxListed)
				break
			}
			fmt.Printf("  %s\n", p)
		}
	}
	if len(r.Problems) > 0 {
		fmt.Printf("files indexed with problems (%d):\n", len(r.Problems))
		for _, s := range r.Problems {
			fmt.Printf("  %s: %s\n", s.Path, s.Reason)
		}
	}
	return nil
}

// refreshFix is what status says of changes no refresh is picking up.
const refreshFix = "the next session start refreshes, or run `vaultctx index`"

// ago says how long before now an RFC 3339 time was, as " (3 min ago)";
// "" when t does not parse.
func ago(t string) string {
	at, err := time.Parse(time.RFC3339, t)
	if err != nil {
		return ""
	}
	d := time.Since(at).Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf(" (%d s ago)", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf(" (%d min ago)", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf(" (%.1f h ago)", d.Hours())
	}
	return fmt.Sprintf(" (%d days ago)", int(d.Hours()/24))
}

// files is "1 file" or "N files".
func files(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}

// more is ", ..." when shown of n paths were listed.
func more(n, shown int) string {
	if n > shown {
		return fmt.Sprintf(" and %d more", n-shown)
	}
	return ""
}

// maxListed is how many chunkless notes status prints before it refers to
// --json.
const maxListed = 20

// fileBytes is the size of the database file plus its WAL, in bytes.
func fileBytes(db string) int64 {
	var n int64
	for _, p := range []string{db, db + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
