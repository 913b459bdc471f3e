package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/index"
	"github.com/vaultctx/vaultctx/core/retrieve"
)

// Options configures Run.
type Options struct {
	// Vault is the vault to measure; Run copies it to a temporary
	// directory first and never writes it.
	Vault string
	// Model is the embedding model directory; "" measures BM25 only.
	Model string
	// Queries is a vault reference set (eval.ReadVaultQueries) whose
	// queries are timed; "" means the titles of up to 50 notes spread
	// evenly over the vault.
	Queries string
	// Hooks is a directory holding the hook binaries, searched before
	// the directory of this executable and $PATH; may be "".
	Hooks string
	// Edits is the number of notes edited before the incremental run,
	// at most the number of notes; it must not be negative.
	Edits int
	// Config supplies the vault rules and the [search] settings.
	Config config.Config
	// Logger receives the indexer's and engine's log lines; nil
	// discards them.
	Logger *slog.Logger
	// Progress receives one line per stage; nil discards.
	Progress io.Writer
}

// Latency is one latency row, in milliseconds. N is 0 when the row could
// not be measured; Note then says why, and Missing names what was missing
// when that is the reason, so a caller can add how to provide it.
type Latency struct {
	Name    string  `json:"name"`
	N       int     `json:"n"`
	P50Ms   float64 `json:"p50_ms"`
	P95Ms   float64 `json:"p95_ms"`
	Note    string  `json:"note,omitempty"`
	Missing Missing `json:"-"`
}

// Missing is what a Latency row lacked to be measured.
type Missing int

const (
	// NotMissing is the zero Missing: the row was measured, or failed
	// for another reason.
	NotMissing Missing = iota
	// MissingVectors: the index holds no vectors (no model was given).
	MissingVectors
	// MissingHook: the hook binary was not found.
	MissingHook
)

// Report is the result of Run, and the output of `vaultctx bench --json`.
// Times are in seconds unless named Ms, sizes in bytes.
type Report struct {
	Vault           string    `json:"vault"`
	Machine         string    `json:"machine"`
	Files           int       `json:"files"`
	Chunks          int       `json:"chunks"`
	Vectors         bool      `json:"vectors"`
	FullSeconds     float64   `json:"full_seconds"`
	FilesPerSecond  float64   `json:"files_per_second"`
	NoChangeSeconds float64   `json:"no_change_seconds"`
	Edits           int       `json:"edits"`
	EditedSeconds   float64   `json:"edited_seconds"`
	DBBytes         int64     `json:"db_bytes"`
	BytesPerChunk   float64   `json:"bytes_per_chunk"`
	MarkdownBytes   int64     `json:"markdown_bytes"`
	DBOverMarkdown  float64   `json:"db_over_markdown"`
	PeakRSSBytes    int64     `json:"full_index_peak_rss_bytes"`
	KNNRecall10     float64   `json:"knn_recall_at_10"`
	Queries         int       `json:"queries"`
	Search          []Latency `json:"search"`
	Hooks           []Latency `json:"hooks"`
	Grep            Latency   `json:"grep"`
	GrepVsHybrid    float64   `json:"grep_p50_over_hybrid_p50"`
}

// ErrNegativeEdits is returned by Run when Options.Edits is below 0.
var ErrNegativeEdits = errors.New("negative number of edits")

// ErrNoNotes is returned by Run when no queries were given and the vault
// has no .md notes to take titles from.
var ErrNoNotes = errors.New("the vault has no .md notes to take queries from")

// Run copies the vault, indexes the copy three times and times the
// queries. It returns ctx.Err() itself when ctx was cancelled by the end,
// ErrNegativeEdits, ErrNoNotes, and the errors of the copy, the indexer
// and in-process searches; a hook, grep or `vaultctx search` process that
// fails is reported in its row's Note, not returned.
func Run(ctx context.Context, opt Options) (*Report, error) {
	if opt.Edits < 0 {
		return nil, ErrNegativeEdits
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	progress := opt.Progress
	if progress == nil {
		progress = io.Discard
	}
	tmp, err := os.MkdirTemp("", "vaultctx-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	vault, db := filepath.Join(tmp, "vault"), filepath.Join(tmp, "index.db")
	fmt.Fprintf(progress, "copying %s ...\n", opt.Vault)
	notes, err := copyVault(ctx, opt.Vault, vault)
	if err != nil {
		return nil, err
	}
	queries, err := benchQueries(opt.Queries, vault, notes)
	if err != nil {
		return nil, err
	}
	rep := &Report{Vault: opt.Vault, Machine: machine(), Queries: len(queries), Edits: min(opt.Edits, len(notes))}

	iopt := index.Options{
		Vault: vault, DB: db, Full: true, ModelDir: opt.Model, NoModel: opt.Model == "",
		Rules: opt.Config.Rules(), Logger: opt.Logger,
	}
	fmt.Fprintln(progress, "full index ...")
	sum, secs, err := timedIndex(ctx, iopt)
	if err != nil {
		return nil, err
	}
	rep.Files, rep.FullSeconds, rep.Vectors = sum.FilesIndexed, secs, sum.Vectors
	rep.PeakRSSBytes = peakRSS()
	if secs > 0 {
		rep.FilesPerSecond = float64(sum.FilesIndexed) / secs
	}
	iopt.Full = false
	fmt.Fprintln(progress, "incremental index, nothing changed ...")
	if _, rep.NoChangeSeconds, err = timedIndex(ctx, iopt); err != nil {
		return nil, err
	}
	if err := editNotes(vault, notes, rep.Edits); err != nil {
		return nil, err
	}
	fmt.Fprintf(progress, "incremental index after %d edits ...\n", rep.Edits)
	if sum, rep.EditedSeconds, err = timedIndex(ctx, iopt); err != nil {
		return nil, err
	}
	rep.Chunks = sum.Chunks
	for _, p := range []string{db, db + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			rep.DBBytes += fi.Size()
		}
	}
	if rep.Chunks > 0 {
		rep.BytesPerChunk = float64(rep.DBBytes) / float64(rep.Chunks)
	}
	for _, n := range notes {
		if fi, err := os.Stat(filepath.Join(vault, filepath.FromSlash(n))); err == nil {
			rep.MarkdownBytes += fi.Size()
		}
	}
	if rep.MarkdownBytes > 0 {
		rep.DBOverMarkdown = float64(rep.DBBytes) / float64(rep.MarkdownBytes)
	}

	fmt.Fprintf(progress, "timing %d queries ...\n", len(queries))
	if err := searchLatency(ctx, opt, db, queries, rep); err != nil {
		return nil, err
	}
	hookLatency(ctx, opt.Hooks, db, vault, tmp, queries, rep)
	rep.Grep = grepLatency(ctx, vault, queries)
	if h := findLatency(rep.Search, retrieve.ModeHybrid); h != nil && h.P50Ms > 0 {
		rep.GrepVsHybrid = rep.Grep.P50Ms / h.P50Ms
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return rep, nil
}

// timedIndex runs the indexer and returns its summary and wall seconds.
func timedIndex(ctx context.Context, opt index.Options) (index.Summary, float64, error) {
	start := time.Now()
	sum, err := index.Run(ctx, opt)
	return sum, time.Since(start).Seconds(), err
}
