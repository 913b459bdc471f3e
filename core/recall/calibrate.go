package recall

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/engine"
)

// The relevance floor's evidence thresholds depend on the vault: in a
// large vault of technical notes, ordinary coding prompts find one chunk
// holding most of their words by chance, and only rare shared terms tell a
// real answer apart; in a small vault about one topic, every word of a
// question about it is common there, and no prompt reaches the same
// number of rare-term units. Calibrate measures, per index, what prompts
// that are about no vault reach: it runs the background prompts
// (background.txt, everyday requests to a coding agent) through the hooks'
// search and sets each clause's evidence threshold just above all but
// BackgroundPassRate of them. This is score normalisation against a
// background (null) distribution, as in the empirical-null methods of
// query performance prediction (e.g. Shtok, Kurland, Carmel, "Predicting
// query performance by query-drift estimation", ICTIR 2009, which
// normalise retrieval scores by a corpus-dependent reference).

//go:embed background.txt
var backgroundText string

// BackgroundPrompts returns the background prompts of the calibration,
// in file order, with "\n" escapes turned into line breaks.
func BackgroundPrompts() []string {
	var out []string
	for _, l := range strings.Split(backgroundText, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, strings.ReplaceAll(l, `\n`, "\n"))
		}
	}
	return out
}

// BackgroundPassRate is the share of the background prompts each clause
// of a calibrated floor lets through at most (ties may let fewer): 1%, so
// at most 2% of everyday prompts pass. The issue this floor answers asks
// for at most 3% false injections on its check prompts.
const BackgroundPassRate = 0.01

// MinCalibratedEvidence holds the least evidence each calibrated clause
// asks for (by CoverageLevels), in rare-term units, for vaults where the
// background prompts match almost nothing: one rare term's worth for the
// 30% clause, half of one for the 90% clause.
var MinCalibratedEvidence = []float64{1.0, 0.5}

// MinCalibratedIdentEvidence is the least weight the identifier clause
// asks of the prompt's identifiers found as written: a name in at most
// n^0.5 of the index's n chunks (27 of 741, 400 of 163,000), a name that
// picks out a few notes.
const MinCalibratedIdentEvidence = 0.5

// MetaCalibration is the index meta key that holds the floor's
// calibration (a JSON Calibration).
const MetaCalibration = "floor_calibration"

// Calibration is the relevance floor measured on one index, stored in its
// meta under MetaCalibration and printed by `vaultctx index`.
type Calibration struct {
	Clauses []Clause `json:"clauses"` // one per CoverageLevels, then the identifier clause
	Prompts int      `json:"prompts"` // background prompts searched
	Passed  int      `json:"passed"`  // of them, those the calibrated floor lets through
	Model   string   `json:"model"`   // the embedding model folder's base name, "" for BM25 only
}

// Calibrate measures the background prompts on the open index e with the
// search settings of cfg and returns the floor's clauses: for each of
// CoverageLevels, the smallest evidence above that of all but
// BackgroundPassRate of the background prompts whose coverage reaches the
// level, and at least MinCalibratedEvidence. It takes one search per
// prompt (315: about 1 s on the 163k-chunk large corpus). Config overrides
// (hooks.min_evidence) are applied where the floor is read (FloorFor).
func Calibrate(ctx context.Context, e *engine.Engine, cfg config.Config) (Calibration, error) {
	var sigs []Signals
	for _, p := range BackgroundPrompts() {
		if PromptSkip(p) != "" {
			continue
		}
		hits, sig, err := Search(ctx, e, cfg, capQuery(p))
		if err != nil {
			return Calibration{}, fmt.Errorf("calibrate the relevance floor: %w", err)
		}
		if len(hits) == 0 {
			sig = Signals{}
		}
		sigs = append(sigs, sig)
	}
	allowed := int(BackgroundPassRate * float64(len(sigs)))
	c := Calibration{Prompts: len(sigs)}
	for i, level := range CoverageLevels {
		var ev []float64
		for _, s := range sigs {
			if s.Matched > 0 && s.Coverage >= level {
				ev = append(ev, s.Evidence)
			}
		}
		t := max(MinCalibratedEvidence[i], above(ev, allowed))
		c.Clauses = append(c.Clauses, Clause{Coverage: level, Evidence: t})
	}
	// The identifier clause: a name the prompt writes, found as written.
	var ev []float64
	for _, s := range sigs {
		if s.IdentEvidence > 0 {
			ev = append(ev, s.IdentEvidence)
		}
	}
	c.Clauses = append(c.Clauses, Clause{Ident: true, Evidence: max(MinCalibratedIdentEvidence, above(ev, allowed))})
	if e.VecAvailable() {
		c.Model = baseName(e.ModelDir())
	}
	f := Floor{Clauses: c.Clauses}
	for _, s := range sigs {
		if f.Pass(s) {
			c.Passed++
		}
	}
	return c, nil
}

// above returns the smallest threshold, rounded up to 0.01, that at most
// allowed of vals reach: just above the (allowed+1)-th largest. It returns
// 0 when allowed or fewer values exist.
func above(vals []float64, allowed int) float64 {
	if len(vals) <= allowed {
		return 0
	}
	v := slices.Clone(vals)
	slices.Sort(v)
	x := v[len(v)-1-allowed]
	return float64(int(x*100)+1) / 100
}

func baseName(p string) string {
	p = strings.TrimRight(p, "/\\")
	if i := strings.LastIndexAny(p, "/\\"); i >= 0 {
		return p[i+1:]
	}
	return p
}

// SaveCalibration writes c into the meta of the index at db (opened for
// writing, briefly).
func SaveCalibration(ctx context.Context, db string, c Calibration) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	e, err := engine.Open(ctx, db, engine.Options{})
	if err != nil {
		return fmt.Errorf("save the floor calibration: %w", err)
	}
	defer e.Close()
	if err := e.Store().SetMeta(ctx, MetaCalibration, string(b)); err != nil {
		return fmt.Errorf("save the floor calibration: %w", err)
	}
	return nil
}

// CalibrateIndex calibrates the index cfg.DB (with cfg.Model) and saves
// the result in its meta: what `vaultctx index` does after every run.
func CalibrateIndex(ctx context.Context, cfg config.Config) (Calibration, error) {
	// Hundreds of searches in the indexer's process: through the page
	// cache, not a map of the file that would keep every page read
	// resident (see store.Options.NoMmap).
	e, err := engine.Open(ctx, cfg.DB, engine.Options{ReadOnly: true, NoMmap: true, ModelDir: cfg.Model, Columns: cfg.Search.Columns})
	if err != nil {
		return Calibration{}, err
	}
	c, err := Calibrate(ctx, e, cfg)
	e.Close()
	if err != nil {
		return c, err
	}
	return c, SaveCalibration(ctx, cfg.DB, c)
}

// LoadCalibration reads the calibration of the open index e; ok is false
// for an index that has none (built before it, or a failed calibration).
func LoadCalibration(ctx context.Context, e *engine.Engine) (c Calibration, ok bool) {
	v, err := e.Store().Meta(ctx, MetaCalibration)
	if err != nil || v == "" {
		return Calibration{}, false
	}
	if json.Unmarshal([]byte(v), &c) != nil || len(c.Clauses) == 0 {
		return Calibration{}, false
	}
	for _, cl := range c.Clauses {
		if !(cl.Evidence > 0 && cl.Coverage >= 0 && cl.Coverage <= 1) {
			return Calibration{}, false
		}
	}
	return c, true
}

// String describes c in one line, as `vaultctx index` and `vaultctx
// status` print it: what a keyword hit must hold for a hook to print
// context, in rare-term units (a term in n^a of the index's n chunks
// counts 1-a), how many background prompts that lets through, and the
// config keys that override it.
func (c Calibration) String() string {
	var b strings.Builder
	b.WriteString("context needs a keyword hit holding ")
	for i, cl := range c.Clauses {
		switch {
		case cl.Ident:
			fmt.Fprintf(&b, ", or (code searches) the searched name worth %.2f", cl.Evidence)
		case i == 0:
			fmt.Fprintf(&b, "%.0f%% of the prompt's term weight and %.2f rare-term units", 100*cl.Coverage, cl.Evidence)
		default:
			fmt.Fprintf(&b, ", or %.0f%% and %.2f", 100*cl.Coverage, cl.Evidence)
		}
	}
	fmt.Fprintf(&b, " (a term in n^a of the n chunks counts 1-a); %d of %d everyday coding prompts pass; [hooks] min_evidence and min_coverage override it",
		c.Passed, c.Prompts)
	return b.String()
}

// HasCalibration reports whether the index at db holds a calibration; an
// index that cannot be opened has none.
func HasCalibration(ctx context.Context, db string) bool {
	e, err := engine.Open(ctx, db, engine.Options{ReadOnly: true})
	if err != nil {
		return false
	}
	defer e.Close()
	_, ok := LoadCalibration(ctx, e)
	return ok
}
