package recall

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/engine"
	"github.com/vaultctx/vaultctx/core/hookio"
	"github.com/vaultctx/vaultctx/core/internal/session"
	"github.com/vaultctx/vaultctx/core/internal/textan"
	"github.com/vaultctx/vaultctx/core/retrieve"
	"github.com/vaultctx/vaultctx/core/scrub"
	"github.com/vaultctx/vaultctx/core/vault"
)

// Events answered by this package.
const (
	EventPrompt  = "UserPromptSubmit"
	EventPreTool = "PreToolUse"
)

// CoverageLevels are the coverage levels of the floor's clauses (Clause,
// Calibrate), chosen on the tuning half of testdata/prompts (FLOOR.md): a
// hit holding 30% of a query's term weight, for long prompts whose rare
// terms a note shares, and one holding 90% of it, for short questions a
// note answers nearly word for word.
var CoverageLevels = []float64{0.3, 0.9}

// DefaultClauses is the floor of an index without a calibration (one built
// before calibrations, or whose calibration failed): the thresholds the
// tuning half of testdata/prompts chose on the large test corpus (162,728
// chunks). See FLOOR.md.
var DefaultClauses = []Clause{{Coverage: 0.3, Evidence: 2.5}, {Coverage: 0.9, Evidence: 1.6}, {Ident: true, Evidence: 0.5}}

// DefaultMinCoverage is the coverage of the one clause hooks.min_evidence
// sets when hooks.min_coverage is 0.
const DefaultMinCoverage = 0.3

// MinTerms is the least number of searchable terms (stopwords removed) a
// query needs before the vault is searched at all.
const MinTerms = 2

// Prompt answers a UserPromptSubmit payload: nil when the config turns the
// hook off (hooks.userprompt = false; the index is not opened), for prompts
// that are not questions to the vault (PromptSkip: slash commands,
// <task-notification> and other client-generated text, acknowledgements,
// lone paths or URLs, pasted output without a question), prompts with
// fewer than MinTerms searchable terms, and prompts whose best hit falls
// below the relevance floor. opts.LeaveOpen leaves the index open (see
// Options).
func Prompt(ctx context.Context, cfg config.Config, in hookio.Input, opts Options) ([]byte, error) {
	if !cfg.Hooks.Enabled(config.HookUserPrompt) {
		return nil, nil
	}
	if why := PromptSkip(in.Prompt); why != "" {
		hookio.Logger(ctx).Debug("prompt not searched", "reason", why)
		return nil, nil
	}
	return answer(ctx, cfg, in, opts, EventPrompt, in.Prompt, cfg.Hooks.PromptBudgetTokens)
}

// PreTool answers a PreToolUse payload for tools whose input states a
// search intent (see Intent); every other tool gets nil, and so does every
// payload when the config turns the hook off (hooks.pretooluse = false).
// opts is as for Prompt.
func PreTool(ctx context.Context, cfg config.Config, in hookio.Input, opts Options) ([]byte, error) {
	if !cfg.Hooks.Enabled(config.HookPreToolUse) {
		return nil, nil
	}
	q := Intent(in)
	if q == "" {
		return nil, nil
	}
	return answer(ctx, cfg, in, opts, EventPreTool, q, cfg.Hooks.PreToolBudgetTokens)
}

// codeSearch reports whether in is a search of code by pattern (Grep,
// Glob), whose words are names rather than a question's words.
func codeSearch(in hookio.Input) bool {
	return in.ToolName == "Grep" || in.ToolName == "Glob"
}

// Intent extracts the search intent of a tool call as plain words:
//   - Grep: the literal parts of the regex `pattern` (metacharacters and
//     escapes such as \b or \s become spaces), so `Get-ChildItem.*-Recurse`
//     gives "Get-ChildItem -Recurse";
//   - Glob: the literal parts of the glob `pattern` without file
//     extensions, so `src/**/auth*.ts` gives "src auth" and `**/*.md`
//     gives "";
//   - WebSearch: `query`; WebFetch: `prompt` (the URL is not searched);
//   - Task and Agent: `description` and `prompt`, one per line.
//
// Fields that are missing or not JSON strings count as empty. It returns
// "" for any other tool (Bash, Read, Edit ...).
func Intent(in hookio.Input) string {
	get := func(k string) string {
		if v := in.ToolInput.Get(k); v.Type == gjson.String {
			return v.Str
		}
		return ""
	}
	switch in.ToolName {
	case "Grep":
		return patternWords(get("pattern"))
	case "Glob":
		return patternWords(stripExts(get("pattern")))
	case "WebSearch":
		return strings.TrimSpace(get("query"))
	case "WebFetch":
		return strings.TrimSpace(get("prompt"))
	case "Task", "Agent":
		return strings.TrimSpace(strings.TrimSpace(get("description")) + "\n" + strings.TrimSpace(get("prompt")))
	}
	return ""
}

// stripExts removes the file extension (from the last '.') of every path
// segment of a glob pattern: "*.md" and "{a,b}.go" name file types, not
// topics.
func stripExts(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if j := strings.LastIndexByte(s, '.'); j >= 0 {
			segs[i] = s[:j]
		}
	}
	return strings.Join(segs, "/")
}

// patternWords keeps the literal parts of a regex or glob pattern,
// separated by single spaces.
func patternWords(p string) string {
	var b strings.Builder
	prevEsc := false
	for _, r := range p {
		switch {
		case prevEsc:
			// \b, \s, \w, \d ... are classes, not letters; an escaped
			// metacharacter is punctuation either way.
			b.WriteByte(' ')
			prevEsc = false
		case r == '\\':
			prevEsc = true
		case strings.ContainsRune(`.*+?()[]{}|^$/,!`, r):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// FloorOf returns the relevance floor the config sets on its own:
// hooks.min_evidence above 0 makes it the one clause {hooks.min_coverage
// (0 means DefaultMinCoverage), hooks.min_evidence}; otherwise the clauses
// are nil (DefaultClauses, or the index's calibration in FloorFor).
// hooks.min_score above 0 lets a vector hit of that cosine pass on its own.
func FloorOf(cfg config.Config) Floor {
	f := Floor{MinCosine: cfg.Hooks.MinScore}
	if h := cfg.Hooks; h.MinEvidence > 0 {
		cov := h.MinCoverage
		if cov <= 0 {
			cov = DefaultMinCoverage
		}
		f.Clauses = []Clause{{Coverage: cov, Evidence: h.MinEvidence}}
	}
	return f
}

// FloorFor returns the relevance floor for the open index e: its
// calibration (Calibrate, stored by `vaultctx index`) where it has one,
// with the config's keys (FloorOf) on top; the defaults otherwise.
func FloorFor(ctx context.Context, e *engine.Engine, cfg config.Config) Floor {
	f := FloorOf(cfg)
	if c, ok := LoadCalibration(ctx, e); ok && f.Clauses == nil {
		f.Clauses = c.Clauses
	}
	return f
}

// Search runs the hooks' hybrid search for query on an open engine with
// the search settings of cfg and returns the hits with their Signals. It
// returns no hits and no error for a query with fewer than MinTerms
// searchable terms. The relevance floor is not applied.
func Search(ctx context.Context, e *engine.Engine, cfg config.Config, query string) ([]retrieve.Hit, Signals, error) {
	hits, measure, err := search(ctx, e, cfg, query)
	if err != nil || len(hits) == 0 {
		return nil, Signals{}, err
	}
	return hits, measure(hits, false), nil
}

// search is Search with the measurement left to the caller: measure
// returns the Signals of any subset of hits (the ones a session has not
// seen yet), for the query's terms and their document frequencies, the
// terms matched as whole words with words (see Measure).
func search(ctx context.Context, e *engine.Engine, cfg config.Config, query string) ([]retrieve.Hit, func(hs []retrieve.Hit, words bool) Signals, error) {
	terms := textan.SearchableTerms(query)
	if len(terms) < MinTerms {
		return nil, nil, nil
	}
	opt, _ := cfg.Search.WithFusion(e.Fusion(ctx))
	hits, err := e.Search(ctx, query, opt.Options(retrieve.ModeHybrid, 0))
	if err != nil {
		return nil, nil, fmt.Errorf("recall search: %w", err)
	}
	if len(hits) == 0 {
		return nil, nil, nil
	}
	topical, idents := TopicalTerms(terms), QueryIdentifiers(query)
	n, df, err := e.DocFreqs(ctx, append(slices.Clone(topical), idents...))
	if err != nil {
		return nil, nil, fmt.Errorf("recall search: %w", err)
	}
	measure := func(hs []retrieve.Hit, words bool) Signals {
		return Measure(hs, topical, n, df[:len(topical)], idents, df[len(topical):], words)
	}
	return hits, measure, nil
}

// MaxQueryBytes is how much of a prompt or tool intent the hooks search
// with: its first 4 KiB, cut at a word boundary. The first few hundred
// words say what a prompt is about; searching megabytes of pasted text
// would only spend the hook's deadline (a 7.9 MB prompt ran past 1.5 s).
const MaxQueryBytes = 4096

// capQuery returns the first MaxQueryBytes of q, cut before a space when
// one is near the end, never inside a UTF-8 sequence.
func capQuery(q string) string {
	if len(q) <= MaxQueryBytes {
		return q
	}
	cut := MaxQueryBytes
	for cut > 0 && !utf8.RuneStart(q[cut]) {
		cut--
	}
	if sp := strings.LastIndexFunc(q[:cut], unicode.IsSpace); sp > cut-200 {
		cut = sp
	}
	return q[:cut]
}

func answer(ctx context.Context, cfg config.Config, in hookio.Input, opts Options, event, query string, budget int) ([]byte, error) {
	query = capQuery(query)
	if len(textan.SearchableTerms(query)) < MinTerms {
		return nil, nil
	}
	log := hookio.Logger(ctx)
	e, err := engine.Open(ctx, cfg.DB, engine.Options{ReadOnly: true, OneQuery: true, ModelDir: cfg.Model, Columns: cfg.Search.Columns, Logger: log, Hybrid: true})
	if err != nil {
		return nil, err
	}
	if !opts.LeaveOpen {
		defer e.Close()
	}
	hits, measure, err := search(ctx, e, cfg, query)
	if perr := e.VectorProblem(); opts.Stderr != nil && perr != nil {
		fmt.Fprintf(opts.Stderr, "vaultctx %s: vector search off: %s; answering with BM25 only\n", event, perr)
	}
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	var seen *session.Seen
	if id := stateID(in); id != "" {
		if dir, err := sessionsDir(); err == nil {
			if s, err := session.Open(dir, id); err == nil {
				seen = s
			}
		}
	}
	// The floor is measured on the hits this session has not been shown:
	// a block must earn its place by itself, not by the chunk that
	// answered the same question a turn ago.
	unseen := hits[:0:0]
	for _, h := range hits {
		if seen == nil || !seen.Has(SeenKey(h)) {
			unseen = append(unseen, h)
		}
	}
	// A code search (Grep, Glob) names code: its words count as whole words.
	sig := measure(unseen, event == EventPreTool && codeSearch(in))
	floor := FloorFor(ctx, e, cfg)
	floor.Prompt = event != EventPreTool
	if len(unseen) == 0 || !floor.Pass(sig) {
		log.Debug("no relevant hit", "hits", len(hits), "unseen", len(unseen), "evidence", sig.Evidence, "coverage", sig.Coverage, "cosine", sig.Cosine)
		return nil, nil
	}
	log.Debug("relevant hits", "hits", len(hits), "unseen", len(unseen), "evidence", sig.Evidence, "coverage", sig.Coverage, "cosine", sig.Cosine)
	root := vaultRoot(ctx, e, cfg)
	sc := scrub.Default()
	var show []Hit
	for _, h := range unseen {
		key := SeenKey(h)
		path, ok := notePath(root, h.Path)
		if !ok {
			log.Debug("hit not on disk", "path", h.Path, "vault", root)
			continue
		}
		clean := func(s string) string { out, _ := sc.Scrub(s); return out }
		show = append(show, Hit{Path: clean(path), Section: clean(h.Section), Title: clean(h.Title), Text: clean(h.Text), ChunkID: key})
	}
	show = Collapse(show) // copies of one section in several notes are shown once (collapse.go)
	block, shown := FormatContext(show, budget)
	if block == "" {
		return nil, nil
	}
	if seen != nil {
		for _, h := range shown {
			if !h.Listed {
				seen.Add(h.ChunkID)
			}
		}
		if err := seen.Save(); err != nil {
			log.Debug("session state not saved", "err", err)
		}
	}
	return hookio.ContextOutput(event, block), nil
}

// vaultRoot returns the folder the index's paths are relative to: the root
// the index records (engine.Vault), or the config's vault when that one is
// a folder and the recorded one is not (the vault moved and the config
// followed it), else whichever of them is set, else "".
func vaultRoot(ctx context.Context, e *engine.Engine, cfg config.Config) string {
	recorded, _ := e.Vault(ctx)
	configured := ""
	if cfg.Vault != "" {
		configured, _ = filepath.Abs(cfg.Vault)
	}
	isDir := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.IsDir()
	}
	switch {
	case recorded != "" && isDir(recorded):
		return recorded
	case configured != "" && isDir(configured):
		return configured
	case recorded != "":
		return recorded
	}
	return configured
}

// notePath returns the path a context block names for a hit at
// vault-relative path rel: the absolute path on disk under root, with the
// file's real name (vault.Locate: an NFD name stays NFD), which Claude
// Code's Read tool can open. ok is false when no such file exists any more
// (deleted or renamed since the last index), and the hit is not shown.
// With no known root the vault-relative path is all there is.
func notePath(root, rel string) (path string, ok bool) {
	if root == "" {
		return rel, true
	}
	abs, err := vault.Locate(root, rel)
	return abs, err == nil
}

// SeenKey identifies a chunk for session de-duplication by its content
// (FNV-1a 64 of path, section and text), not its row id: row ids are reused
// after deletes and restart after a full rebuild, and a reused id must not
// hide a different, new chunk for the rest of a session.
func SeenKey(h retrieve.Hit) int64 {
	f := fnv.New64a()
	f.Write([]byte(h.Path))
	f.Write([]byte{0})
	f.Write([]byte(h.Section))
	f.Write([]byte{0})
	f.Write([]byte(h.Text))
	return int64(f.Sum64())
}
