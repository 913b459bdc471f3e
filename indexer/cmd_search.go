package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"golang.org/x/term"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/engine"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/store"
)

// searchCmd is `vaultctx search`.
type searchCmd struct {
	DB        string   `help:"Index file (default: as for index)." type:"path" placeholder:"FILE"`
	Mode      string   `help:"bm25, vector or hybrid." enum:"bm25,vector,hybrid" default:"hybrid"`
	K         int      `short:"k" help:"Number of results (0 or unset: k in the config, else 10)." placeholder:"N"`
	MaxTokens int      `help:"Cut the ranked list to this many tokens (4 characters per token)." placeholder:"N"`
	JSON      bool     `name:"json" help:"Print results as a JSON array."`
	Explain   bool     `help:"Show each leg's rank and score."`
	AllCopies bool     `name:"all-copies" help:"Show near-duplicate chunks (one section copied into several notes) one by one, instead of once with the notes it is also in."`
	Query     []string `arg:"" help:"Query text." required:""`
}

// jsonHit is one element of `search --json`.
type jsonHit struct {
	Path           string   `json:"path"`
	Section        string   `json:"section"`
	HeadingContext string   `json:"heading_context"`
	Text           string   `json:"text"`
	Score          float64  `json:"score"`
	ChunkID        int64    `json:"chunk_id"`
	BM25Rank       *int     `json:"bm25_rank"`
	VecRank        *int     `json:"vec_rank"`
	BM25Score      *float64 `json:"bm25_score,omitempty"`
	VecScore       *float64 `json:"vec_score,omitempty"`
	// AlsoIn lists the near-duplicates folded into this hit, in rank
	// order (absent with --all-copies or when there are none).
	AlsoIn []jsonCopy `json:"also_in,omitempty"`
}

// jsonCopy is one near-duplicate of a hit in `search --json`.
type jsonCopy struct {
	Path    string `json:"path"`
	Section string `json:"section"`
	ChunkID int64  `json:"chunk_id"`
}

// Run searches the index.
func (c *searchCmd) Run(g *globals) error {
	// One search lives for tens of milliseconds: like the hooks, it runs
	// without the garbage collector (up to a 512 MiB heap), whose sweeping
	// faulted in fresh pages with TLB shootdowns on every CPU.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(512 << 20)
	cfg, err := loadConfig(g)
	if err != nil {
		return err
	}
	if c.K < 0 || c.MaxTokens < 0 {
		return usageError{"-k and --max-tokens take a positive number (0 means the default)"}
	}
	query := strings.Join(c.Query, " ")
	if strings.TrimSpace(query) == "" {
		return usageError{"the query is empty: vaultctx search WORDS... (a query starting with - goes after --: vaultctx search -- -Recurse)"}
	}
	db := orDefault(c.DB, cfg.DB)
	e, err := engine.Open(g.Ctx, db, engine.Options{ReadOnly: true, OneQuery: true, ModelDir: cfg.Model, Columns: cfg.Search.Columns, Hybrid: c.Mode == retrieve.ModeHybrid})
	if err != nil {
		// No index yet (store.ErrNotIndexed) gets the hint to run an
		// index, with the vault and --db fitted to it (commandAdvice).
		return err
	}
	if why := e.Store().Fallback(); errors.Is(why, store.ErrWALUnread) {
		// Stale, but an answer: say so where the results do not go.
		fmt.Fprintf(os.Stderr, "vaultctx: %s: %v: answering without them\nvaultctx: %s\n", db, why, advice(walUnreadFix, "", false, c.DB))
	}
	// The index is left open for the exit to reclaim: closing a mapped
	// read-only file costs a quarter of a search's CPU (see recall.Options).
	k := c.K
	if k <= 0 {
		k = cfg.Search.K
	}
	search, weightFrom := cfg.Search.WithFusion(e.Fusion(g.Ctx))
	opt := search.Options(c.Mode, k)
	opt.MaxTokens = c.MaxTokens
	opt.Collapse = !c.AllCopies
	if opt.Collapse {
		opt.Copies = e.ChunkCopies(g.Ctx) // read once, for the search and --explain
	}
	hits, err := e.Search(g.Ctx, query, opt)
	if errors.Is(err, retrieve.ErrNoVectors) {
		return usageError{"this index has no usable vectors (vec_available=false): use --mode bm25, or index with --model DIR"}
	}
	if err != nil {
		return err
	}
	if c.Mode != retrieve.ModeBM25 {
		if err := e.VectorProblem(); err != nil {
			fmt.Fprintf(os.Stderr, "vaultctx: vector search off: %v; answering with BM25 only\n", err)
		}
	}
	if c.JSON {
		out := make([]jsonHit, len(hits))
		for i, h := range hits {
			out[i] = jsonHit{Path: h.Path, Section: h.Section, HeadingContext: h.HeadingContext, Text: h.Text, Score: h.Score, ChunkID: h.ChunkID}
			for _, d := range h.AlsoIn {
				out[i].AlsoIn = append(out[i].AlsoIn, jsonCopy{Path: d.Path, Section: d.Section, ChunkID: d.ChunkID})
			}
			if h.BM25Rank > 0 {
				r, s := h.BM25Rank, h.BM25Score
				out[i].BM25Rank, out[i].BM25Score = &r, &s
			}
			if h.VecRank > 0 {
				r, s := h.VecRank, h.VecScore
				out[i].VecRank, out[i].VecScore = &r, &s
			}
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	color := term.IsTerminal(int(os.Stdout.Fd()))
	// One write at the end instead of four per hit.
	w := bufio.NewWriter(os.Stdout)
	if c.Explain {
		fmt.Fprintf(w, "mode=%s vec_available=%t k=%d\n", c.Mode, e.VecAvailable(), k)
		if c.Mode == retrieve.ModeHybrid || c.Mode == "" {
			// Vector hits under min_cosine never enter the fusion, so they
			// show as vec_rank=- here.
			fmt.Fprintf(w, "fusion: %s\n", search.Summary())
			fmt.Fprintf(w, "fusion: vector_weight from %s, min_cosine from %s", weightFrom, minCosineFrom(cfg.Search))
			if f, ok := e.Fusion(g.Ctx); ok {
				fmt.Fprintf(w, "; index calibration %s", f)
			}
			fmt.Fprintln(w)
		}
		if opt.Collapse {
			if opt.Copies > 0 {
				fmt.Fprintf(w, "collapse: %.2f chunks per distinct text in the index, so each leg first ranks %d candidates\n", opt.Copies, retrieve.CollapseWindow(opt))
			} else {
				fmt.Fprintf(w, "collapse: chunks per distinct text not recorded (an index built before it was, or a damaged record; the next index run writes it), so each leg ranks %d candidates\n", retrieve.CollapseWindow(opt))
			}
		}
	}
	if len(hits) == 0 {
		fmt.Fprintln(w, "no results")
		return w.Flush()
	}
	for i, h := range hits {
		fmt.Fprintf(w, "%2d. %s", i+1, retrieve.QuotePath(h.Path))
		if h.Section != "" {
			fmt.Fprintf(w, " § %s", h.Section)
		}
		fmt.Fprintln(w)
		if also := alsoIn(h); also != "" {
			fmt.Fprintf(w, "    %s\n", also)
		}
		if c.Explain {
			lead := ""
			if (c.Mode == retrieve.ModeHybrid || c.Mode == "") && h.BM25Rank == i+1 && i < search.BM25Lead {
				lead = " (kept first: bm25_lead)"
			}
			fmt.Fprintf(w, "    score=%.5f bm25_rank=%s vec_rank=%s bm25=%s cosine=%s%s\n", h.Score, rank(h.BM25Rank), rank(h.VecRank),
				legScore(h.BM25Rank, h.BM25Score), legScore(h.VecRank, h.VecScore), lead)
		}
		text := h.Text
		if !color {
			// Matches are marked **like this**; the note's own bold
			// markers would make ****runs**** of them.
			text = strings.ReplaceAll(text, "**", "")
		}
		fmt.Fprintf(w, "    %s\n", retrieve.Snippet(text, query, 200, highlighter(color)))
	}
	return w.Flush()
}

// minCosineFrom says where search.min_cosine comes from: the config file
// when it sets the key, else the default (it is not calibrated).
func minCosineFrom(s config.Search) string {
	if s.MinCosineSet {
		return config.FromConfig
	}
	return config.FromDefault
}

// alsoIn says where else the text of h is, from its folded
// near-duplicates: "also in 2 notes: a.md, b.md", and for copies inside
// its own note "also in this note: § OUTPUTS". "" when there are none.
func alsoIn(h retrieve.Hit) string {
	var notes, sections []string
	for _, d := range h.AlsoIn {
		switch {
		case d.Path != h.Path && !slices.Contains(notes, retrieve.ListItem(retrieve.QuotePath(d.Path))):
			notes = append(notes, retrieve.ListItem(retrieve.QuotePath(d.Path)))
		case d.Path == h.Path && !slices.Contains(sections, "§ "+d.Section):
			sections = append(sections, "§ "+d.Section)
		}
	}
	var parts []string
	if len(notes) > 0 {
		parts = append(parts, fmt.Sprintf("also in %d note%s: %s", len(notes), plural(len(notes)), strings.Join(notes, ", ")))
	}
	if len(sections) > 0 {
		parts = append(parts, "also in this note: "+strings.Join(sections, ", "))
	}
	return strings.Join(parts, "; ")
}

// legScore formats a leg's score, or "-" when the hit is not in that leg's
// list (no score was computed, or a vector hit fell under min_cosine).
func legScore(rank int, score float64) string {
	if rank == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", score)
}

func rank(r int) string {
	if r == 0 {
		return "-"
	}
	return fmt.Sprint(r)
}

func highlighter(color bool) func(string) string {
	if color {
		return func(s string) string { return "\x1b[1;33m" + s + "\x1b[0m" }
	}
	return func(s string) string { return "**" + s + "**" }
}
