package compress

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/vaultctx/vaultctx/core/internal/textan"
)

// Defaults of Options.
const (
	// DefaultThresholdBytes is the stdout+stderr size (bytes) from which a
	// Bash result is condensed: 4 KB.
	DefaultThresholdBytes = 4096
	// DefaultBudgetTokens is the extract's budget: 2,000 tokens.
	DefaultBudgetTokens = 2000
	// CharsPerToken is the shared token estimate (textan.CharsPerToken, 4),
	// re-exported for callers outside core; budgets are computed with
	// textan.CharBudget and applied here to bytes rather than runes, so the
	// estimate is never low and the hot path decodes no UTF-8 (the goldens
	// depend on bytes).
	CharsPerToken = textan.CharsPerToken
	// MaxBudgetTokens caps BudgetTokens and ContentBudgetTokens: Claude
	// Code 2.1.332 hands the model an updatedToolOutput of up to 30,000
	// bytes whole and replaces a longer one with its own preview
	// (internal/claudetest TestUpdatedToolOutputCap), so an extract stays
	// at 29,000 bytes or less.
	MaxBudgetTokens = 7250
	// DefaultContentBudgetTokens is the budget of a cut content output (a
	// file or a diff over ContentPassBytes, see contentOf): 7,000 tokens,
	// 28,000 bytes. It is larger than DefaultBudgetTokens because content
	// is cut only between whole hunks and regions, and the agent asked to
	// read it.
	DefaultContentBudgetTokens = 7000
)

// Limits of the extract algorithm (bytes and lines).
const (
	maxShownLine     = 1000 // longest line shown whole; a longer one is shown as a cut marker (cutLine)
	maxImportantHead = 600  // bytes of a cut error/summary line quoted in its marker
	maxPlainHead     = 240  // bytes of a cut ranked line quoted in its marker
	maxPlainLine     = 400  // bytes of a ranked line whose tokens are counted against the query
	minRun           = 5    // consecutive similar lines collapsed into one
	maxBlockLines    = 6    // ranked lines are kept in blocks of up to 6
	markerReserve    = 32   // bytes of a gap marker with a count of up to 7 digits
	blankReserve     = 1    // a blank line kept after a unit
	tailSummaryLines = 3    // last non-blank lines of a stream kept as its verdict
	dataHeadLines    = 3    // first non-blank lines of a data listing always kept
	dataTailLines    = 2    // last non-blank lines of a data listing always kept
)

// Selection tiers, most important first.
const (
	tierSummary = iota // verdict and count lines
	tierError          // errors, failures, panics, exceptions
	tierAnomaly        // rare shapes and field outliers of a repetitive output (markAnomalies)
	tierLocate         // user-code frames and locations, failing test output
	tierWarning        // warnings
	tierContext        // compiler source excerpts, more continuation lines
	tierRank           // everything else, ranked against the query
)

// tierCaps bound the share of the budget the first pass gives to verdicts
// and to errors, so a flood of errors (say 800 of them) leaves room for the
// verdict and vice versa. A second pass then fills what is left in tier
// order, uncapped.
var tierCaps = [...]float64{tierSummary: 0.25, tierError: 0.6, tierAnomaly: 0.35}

// Request is one Bash result to condense, with the text it is ranked
// against.
type Request struct {
	Command     string // tool_input.command
	Description string // tool_input.description
	Prompt      string // the latest user prompt, if known
	Stdout      string
	Stderr      string
	Interrupted bool
	IsImage     bool
	// FullOutputPath is where Claude Code saved the complete output when
	// it was too large to hand to the hook whole (tool_response's
	// persistedOutputPath). The caller then passes the complete output as
	// Stdout; the extract's header keeps this pointer so the agent can
	// always read everything. "" when Claude Code saved nothing.
	FullOutputPath string
	// MirrorsFile says that stdout reproduces the lines of a file the
	// command names, as the caller checked against that file (a program
	// that prints a file its own way: python3 -c "print(open(f).read())",
	// node -e, perl -pe, grep -v '^$' f). The output is then content, as
	// cat's would be.
	MirrorsFile bool
}

// Options tune Extract. Zero values mean the defaults.
type Options struct {
	ThresholdBytes int // condense when len(stdout)+len(stderr) >= this (default 4096)
	BudgetTokens   int // extract budget in tokens at CharsPerToken (default 2000, at most MaxBudgetTokens)
	// ContentBudgetTokens is the budget of a content output's cut (default
	// DefaultContentBudgetTokens, at most MaxBudgetTokens, never less than
	// BudgetTokens).
	ContentBudgetTokens int
	// Scrub redacts secrets from the rendered extract. Nil means the
	// project's default scrubber.
	Scrub func(string) string
	// Embedder, if set, adds a semantic ranking signal. It is optional:
	// without it blocks are ranked by BM25 and position.
	Embedder Embedder
}

// Embedder turns texts into vectors of one dimension; cosine similarity
// between the query's vector and each block's is used as a ranking signal.
// *embed.Model (core/embed) satisfies it.
type Embedder interface {
	EncodeBatch(ctx context.Context, texts []string) ([][]float32, error)
}

func (o Options) withDefaults() Options {
	if o.ThresholdBytes <= 0 {
		o.ThresholdBytes = DefaultThresholdBytes
	}
	if o.BudgetTokens <= 0 {
		o.BudgetTokens = DefaultBudgetTokens
	}
	o.BudgetTokens = min(o.BudgetTokens, MaxBudgetTokens)
	if o.ContentBudgetTokens <= 0 {
		o.ContentBudgetTokens = DefaultContentBudgetTokens
	}
	o.ContentBudgetTokens = min(max(o.ContentBudgetTokens, o.BudgetTokens), MaxBudgetTokens)
	if o.Scrub == nil {
		o.Scrub = defaultScrub
	}
	return o
}

// Extract is a condensed Bash result.
type Extract struct {
	Stdout string // header line, then the stdout extract
	Stderr string // the stderr extract
	Lines  int    // lines in the original output (stdout + stderr)
	Kept   int    // of which shown, each verbatim (see Condense)
}

// ShouldCondense reports whether a Bash result is worth condensing: not an
// image, not an empty interrupted result, and at least the threshold. Its
// extract then still replaces it only if WorthReplacing.
func ShouldCondense(req Request, opts Options) bool {
	opts = opts.withDefaults()
	if req.IsImage {
		return false
	}
	size := len(req.Stdout) + len(req.Stderr)
	if req.Interrupted && strings.TrimSpace(req.Stdout+req.Stderr) == "" {
		return false
	}
	if size < opts.ThresholdBytes {
		return false
	}
	// The content of a file or a diff that Claude Code handed over whole
	// reaches the agent whole (see ContentPassBytes).
	return size > ContentPassBytes || req.FullOutputPath != "" || contentOf(req).kind == contentNone
}

// MinSavingPercent is how much smaller than the original output (stdout
// plus stderr, bytes) an extract, header included, must be to replace it:
// 25%. Condensing drops lines (collapsed runs, ranked blocks that did not
// fit); an output just over the threshold that would shrink by less than a
// quarter (ls -la of 70 files: 4,399 bytes to 3,907, 12 entries lost) is
// worth more whole, so it passes through unchanged (see WorthReplacing).
const MinSavingPercent = 25

// WorthReplacing reports whether ex, the extract of req, is at least
// MinSavingPercent smaller than req's stdout plus stderr (bytes, the
// extract's header included), or the output was persisted by Claude Code
// (FullOutputPath), which would otherwise show only a short preview. When
// it is not, the hook prints nothing and the original output reaches
// Claude as is. The rule depends only on byte
// counts, so it is as deterministic as Condense.
func WorthReplacing(req Request, ex Extract) bool {
	if req.FullOutputPath != "" {
		// Passing through would leave the model Claude Code's 2 KB
		// preview of the output, not the output: any extract is better.
		return true
	}
	in := len(req.Stdout) + len(req.Stderr)
	out := len(ex.Stdout) + len(ex.Stderr)
	return out*100 <= in*(100-MinSavingPercent)
}

// MayPassThrough reports whether the extract of req could fail
// WorthReplacing: only when the extract's budget (bytes) is more than
// (100-MinSavingPercent)% of the output, that is for outputs under about
// 10.7 KB at the default budget. Larger outputs are always replaced (but
// for budgets smaller than the header, see Condense), so a caller may save
// the full output alongside Condense without waiting for its verdict.
func MayPassThrough(req Request, opts Options) bool {
	opts = opts.withDefaults()
	in := len(req.Stdout) + len(req.Stderr)
	return textan.CharBudget(opts.BudgetTokens)*100 > in*(100-MinSavingPercent)
}

// line is one output line: what is shown of it, and its normalised form,
// which is only compared, never shown.
type line struct {
	show string // the line as a terminal showed it (cleanLine), or a cut marker for an over-long line (cutLine)
	text string // Normalize(show before any cut): classified, ranked and grouped on, never displayed
	key  string // shapeKey(text, data), for ranked lines
	tmpl uint64 // templateHash(text), for lines that may be ranked outside data listings (see markAnomalies)
	// The tokens of text cut as a ranked line (see tokenStats), counted
	// while the lines are prepared so that ranking reads no text again.
	hits []queryHit // tokens that are query terms or stems, in order
	ntok int32      // tokens
	unit int32      // index into units; -1 for blank lines
	skip int32      // lines it stands for that were not read (see MaxExaminedBytes); such a line is blank and never kept
	// Small fields last: a line is 80 bytes, and a megabyte of output
	// holds some 20,000 of them.
	stream int8 // 0 stdout, 1 stderr
	tier   int8
	data   bool  // from a data listing (see isDataCommand)
	anom   int8  // anomaly strength (anomRare, anomField; see markAnomalies)
	drop   bool  // a member of a usual template that its exemplar stands for (groupFrequent): never shown
	group  int32 // for a template's exemplar, the template's line count (groupFrequent); 0 otherwise
	ready  bool  // made, not read: not cleaned or classified (a binary stream's stand-in, a skip line)
	kind   kind
}

// planLen is the length selection plans a line's cost with: its
// normalised text's, so that two runs that differ only in volatile tokens
// (a timing jest prints only for slow tests, a longer duration) choose the
// same lines; a line shown as a cut marker costs the marker.
func (l *line) planLen() int {
	if len(l.show) < len(l.text) && strings.HasPrefix(l.show, "[… line ") {
		return len(l.show)
	}
	return len(l.text)
}

// unit is what selection keeps or drops as a whole: one important line, a
// block of up to maxBlockLines ranked lines, or a run of similar lines.
type unit struct {
	first, last int  // indices into lines (inclusive), all in one stream
	stream      int  // 0 stdout, 1 stderr
	tier        int  // the tier of its lines
	run         bool // a collapsed run of similar lines (or groups of lines)
	period      int  // a run's group size in lines
	repAt       int  // a run's representative group (see repText): index into lines of its first line
	cost        int  // rendered bytes plus a marker reserve
	rank        int  // order within tierRank (0 best)
	fromEnd     int  // non-blank lines after the unit in its stream
}

// Condense builds the extract of req under opts, with header naming
// savedPath as the location of the full output ("" when it was not saved).
// It is deterministic: the same request, options and path give the same
// bytes, and two runs of a command that differ only in volatile tokens (see
// Normalize) or in the order of similar lines give the same bytes.
//
// The algorithm:
//  0. of an output over MaxExaminedBytes only a head and a tail are read;
//     the lines between count as omitted and the header says how many;
//  1. each line is cleaned (cleanLine: '\r' redraws, ANSI escapes, control
//     characters) and normalised (Normalize), and over-long lines are cut;
//     its tokens are counted against the query once, for step 5;
//  2. lines are classified: errors, warnings, summaries, stack frames,
//     compiler excerpts (classify). stdout of data commands (grep, find,
//     git log … see isDataCommand) holds no diagnostics;
//  3. tiers: summaries (and each stream's last lines), errors, the frames
//     and locations of user code plus an error's continuation lines,
//     warnings, compiler excerpts, then everything else;
//  4. runs of minRun or more consecutive ranked lines with the same shape
//     (indent and first two words, digit runs masked), or of three or more
//     repeating groups of up to maxPeriod lines ("=== RUN"/"--- PASS"
//     pairs), collapse into one representative line or group (the most
//     query terms, then the smallest text) and a count, which makes
//     concurrent output (npm's parallel fetches) order-independent; other
//     remaining lines form blocks of up to maxBlockLines;
//  5. blocks are ranked by Reciprocal Rank Fusion (retrieve.Fuse, k=60) of
//     BM25 against the command, description and prompt, closeness to the
//     output's head or tail, and, with an Embedder, cosine similarity;
//  6. units are taken greedily while they fit the budget: first verdicts
//     (nearest their stream's end first) and errors, each capped at a share
//     of the budget (tierCaps), then every tier in order, uncapped, ranked
//     blocks by fused rank; a compiler excerpt is only taken beside a kept
//     neighbour. A unit next to a kept one costs no gap marker;
//  7. kept units are rendered in original order with "[… N lines omitted …]"
//     markers (a collapsed run as its representative line and
//     "[… N similar lines omitted …]"); blank lines survive only between
//     kept lines;
//  8. the text is scrubbed of secrets (Options.Scrub) and checked against
//     the budget again, dropping the last-taken units until it fits.
//
// The budget, BudgetTokens*CharsPerToken bytes, covers the header and both
// streams; only a budget smaller than the header itself is exceeded.
//
// Cost: steps 1 and 2 read each byte a few times, in one pass per line
// spread over up to four goroutines (regexps run only behind cheap
// triggers); the rest works on units. Time grows linearly with the output
// up to MaxExaminedBytes and stays flat beyond.
func Condense(ctx context.Context, req Request, opts Options, savedPath string) Extract {
	opts = opts.withDefaults()
	if src := contentOf(req); src.kind != contentNone {
		return condenseContent(req, src, opts, savedPath)
	}
	q := newQuery(req)
	data := isDataCommand(req.Command) && !looksLikeLog(req.Stdout)
	lines, counts := splitStreams(req, data, q)
	total := counts[0] + counts[1]
	size, skipped := 0, 0
	for _, l := range lines {
		size += l.planLen() + 1
		skipped += int(l.skip)
	}
	header := headerLine(total, len(req.Stdout)+len(req.Stderr), skipped, savedPath, req.FullOutputPath)
	budget := textan.CharBudget(opts.BudgetTokens) - len(header) - 1
	// Groups of lines collapse only when the output would not fit anyway;
	// runs of single similar lines always do (it makes reordered concurrent
	// output compare equal).
	maxP := 1
	if size > budget {
		maxP = maxPeriod
	}
	units := buildUnits(lines, q, maxP)
	rankUnits(ctx, units, lines, q, opts.Embedder)
	rankErrorsByShape(units, lines)
	order := selectionOrder(units)

	rankBytes := budget
	if !data {
		rankBytes = rankBudget(len(req.Stdout) + len(req.Stderr))
	}
	chosen := choose(units, order, budget, rankBytes)
	for {
		out, errOut, kept := render(lines, units, chosen)
		out, errOut = opts.Scrub(out), opts.Scrub(errOut)
		if len(chosen) == 0 && len(out)+len(errOut) > budget {
			out, errOut = "", "" // a budget smaller than the markers: the header alone
		}
		if len(out)+len(errOut) <= budget || len(chosen) == 0 {
			return Extract{Stdout: header + "\n" + out, Stderr: errOut, Lines: total, Kept: kept}
		}
		// Scrubbing or blank lines made it longer than planned: drop the
		// least important unit chosen and render again.
		chosen = chosen[:len(chosen)-1]
	}
}

// headerLine is the extract's first line. It depends only on the output's
// line count (total; skipped: lines not read, see MaxExaminedBytes) and the
// paths, so pairs of runs share it but for the saved file's name. When
// Claude Code saved the complete output (fullPath), the header also states
// its size in bytes: the hook was handed only a part of it, and the agent
// should know how much there is.
func headerLine(total, bytes, skipped int, savedPath, fullPath string) string {
	where := "full output not saved"
	if savedPath != "" {
		where = "full output: " + savedPath
	}
	size := plural(total, "line")
	if fullPath != "" {
		where += "; Claude Code's copy: " + fullPath
		size += ", " + itoa(bytes) + " bytes"
	}
	if skipped > 0 {
		size += " (" + itoa(skipped) + " lines only searched for errors: output over " + itoa(MaxExaminedBytes>>20) + " MiB)"
	}
	return HeaderPrefix + "Bash output condensed from " + size + "; " + where + "]"
}

// HeaderPrefix starts an extract's header, its first line.
const HeaderPrefix = "[vaultctx: "

// IsMarkerLine reports whether a line of an extract is one of the
// extract's own: the header (HeaderPrefix … "]") or a marker such as
// "[… 12 lines omitted …]" ("[… " … " …]"). Every other line of an extract
// is a line of the output, byte for byte as a terminal showed it (see
// Condense).
func IsMarkerLine(s string) bool {
	return strings.HasPrefix(s, "[… ") && strings.HasSuffix(s, " …]") ||
		strings.HasPrefix(s, HeaderPrefix) && strings.HasSuffix(s, "]")
}

// MaxExaminedBytes bounds the work on one output: of stdout and stderr
// together at most 4 MiB are read line by line, so that condensing takes
// the same time for any larger output (about what 4 MB take, well within
// the hook's deadline). A stream over its share (its part of
// the total, times this) is read from its head (a quarter of the share) and
// its tail (the rest, where verdicts and final errors are); the lines
// between count as omitted, and the header says how many were not read.
const MaxExaminedBytes = 4 << 20

// splitStreams cleans, normalises and classifies the lines of both
// streams, and counts their tokens against q (see tokenStats). counts are
// the streams' line counts, lines skipped by MaxExaminedBytes included.
func splitStreams(req Request, data bool, q *query) (lines []line, counts [2]int) {
	size := len(req.Stdout) + len(req.Stderr)
	var texts [2][2]string // per stream: head (or the whole text), tail
	var middles [2]string  // per stream: the lines between head and tail
	var skipped [2]int     // lines between head and tail
	for s, text := range []string{req.Stdout, req.Stderr} {
		text = strings.TrimSuffix(text, "\n")
		texts[s][0] = text
		if size > MaxExaminedBytes && text != "" {
			share := int(int64(MaxExaminedBytes) * int64(len(text)) / int64(size))
			head, tail, n := window(text, share)
			texts[s][0], texts[s][1], skipped[s] = head, tail, n
			if n > 0 {
				from, to := len(head), len(text)-len(tail)
				if head != "" {
					from++
				}
				if tail != "" {
					to--
				}
				middles[s] = text[from:max(from, to)]
			}
		}
	}
	n := 2
	for s := range texts {
		n += strings.Count(texts[s][0], "\n") + strings.Count(texts[s][1], "\n") + 2
	}
	lines = make([]line, 0, n)
	var starts [3]int // stream s is lines[starts[s]:starts[s+1]]
	for s, text := range []string{req.Stdout, req.Stderr} {
		starts[s] = len(lines)
		if text == "" {
			continue
		}
		if looksBinary(text) {
			// One line stands for the whole stream: its bytes are no use
			// to the model and would only fill the budget with U+FFFD.
			lines = append(lines, line{text: "[… binary output, " + itoa(len(text)) + " bytes, not shown …]", stream: int8(s), unit: -1, kind: kindSummary, tier: tierSummary, ready: true})
			counts[s] = strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
			continue
		}
		real, skips := 0, 0
		for k, part := range texts[s] {
			if k == 1 {
				if skipped[s] == 0 {
					break
				}
				// Blank lines stand for the lines not read line by line;
				// the ones between them are that part's error lines.
				gap := 0
				addGap := func() {
					if gap > 0 {
						lines = append(lines, line{stream: int8(s), unit: -1, kind: kindBlank, skip: int32(gap), ready: true})
						skips += gap
						gap = 0
					}
				}
				found := 0
				for raw := range strings.SplitSeq(middles[s], "\n") {
					if found < maxMiddleLines && mayBeError(raw) {
						addGap()
						lines = append(lines, line{text: raw, stream: int8(s), unit: -1, data: data && s == 0})
						real++
						found++
						continue
					}
					gap++
				}
				addGap()
				if part == "" {
					break
				}
			} else if part == "" && skipped[s] > 0 {
				continue // no head: the stream opens with one line longer than its share
			}
			for raw := range strings.SplitSeq(part, "\n") {
				lines = append(lines, line{text: raw, stream: int8(s), unit: -1, data: data && s == 0})
				real++
			}
		}
		counts[s] = real + skips
	}
	starts[2] = len(lines)
	// Both streams at once, so that a small stderr does not wait for stdout.
	prepareLines(lines, q)
	for s := range 2 {
		if ls := lines[starts[s]:starts[s+1]]; len(ls) > 0 && !(len(ls) == 1 && ls[0].kind == kindSummary && ls[0].ready) {
			assignTiers(ls, data && s == 0)
			switch {
			case !(data && s == 0):
				markAnomalies(ls, false)
			case measuresThings(req.Command):
				markAnomalies(ls, true)
			}
			if req.Interrupted {
				keepTail(ls, interruptedTailLines)
			}
		}
	}
	var at [2]int // the stream line each line is, lines not read counted
	for i := range lines {
		l := &lines[i]
		at[l.stream] += 1 + int(l.skip)
		if l.ready {
			l.show = l.text
			continue // a stand-in of the extract's own
		}
		head := maxPlainHead
		if l.tier < tierRank {
			head = maxImportantHead
		}
		l.show = cutNamedLine(l.show, at[l.stream], streamNames[l.stream], head)
	}
	return lines, counts
}

// streamNames name the streams in cut markers.
var streamNames = [2]string{"stdout", "stderr"}

// maxMiddleLines caps the error lines kept from the part of a stream not
// read line by line (see MaxExaminedBytes).
const maxMiddleLines = 200

// mayBeError is the cheap test the part of a stream not read line by line
// gets: a line with an error mark (hasErrorMark) or an error word of the
// common formats ("ERROR", "FATAL", "panic:", "Traceback", "Exception",
// "error:", "FAIL").
func mayBeError(raw string) bool {
	if hasErrorMark(raw) {
		return true
	}
	for _, w := range []string{"ERROR", "FATAL", "CRITICAL", "panic:", "Traceback", "Exception", "error:", "FAIL"} {
		if strings.Contains(raw, w) {
			return true
		}
	}
	return false
}

// window splits text (without a final '\n') for MaxExaminedBytes: a head of
// whole lines within share/4 bytes, a tail of whole lines within the rest
// of share ("" for none), and the number of lines between them. It returns
// text, "", 0 when there is nothing between them.
func window(text string, share int) (head, tail string, skipped int) {
	if len(text) <= share {
		return text, "", 0
	}
	headLines, tailLines := 0, 0
	// A head or tail is never "" (one empty line): "" means none.
	h := strings.LastIndexByte(text[:share/4], '\n') // head is text[:h]
	if h > 0 {
		head = text[:h]
		headLines = strings.Count(head, "\n") + 1
	}
	t := len(text) - (share - share/4) // tail is text[t:], from a line start
	if i := strings.IndexByte(text[t:], '\n'); i >= 0 && t+i+1 < len(text) {
		t += i + 1
		tail = text[t:]
		tailLines = strings.Count(tail, "\n") + 1
	} else {
		t = len(text)
	}
	skipped = strings.Count(text, "\n") + 1 - headLines - tailLines
	if skipped <= 0 || h >= t {
		return text, "", 0
	}
	return head, tail, skipped
}

// mayRank reports whether a line of kind k may end up in tierRank (see
// assignTiers): plain lines, and frames and excerpts, which are ranked when
// they point into libraries or quote no diagnostic, and test logs of
// passing tests, and verdicts of one item among many (demoteItemVerdicts).
// Errors and warnings never are, so their tokens are not counted.
func mayRank(k kind) bool {
	return k == kindPlain || k == kindFrame || k == kindExcerpt || k == kindTestLog || k == kindSummary
}

// parallelMinLines is the line count from which prepareLines splits the
// work across CPUs.
const parallelMinLines = 4096

// prepareLines cleans, normalises and classifies raw lines in place (all
// but those made ready), and counts their tokens against q. Each line is processed on its own, so
// large outputs are split across up to four goroutines; the result does not
// depend on the split.
func prepareLines(ls []line, q *query) {
	work := func(part []line) {
		var arena []queryHit // the hits of this part's lines
		z := new(tokenizer)
		for i := range part {
			l := &part[i]
			if l.ready {
				continue
			}
			l.show = cleanLine(l.text)
			l.text = Normalize(l.show)
			l.kind = classify(l.text, l.data)
			if mayRank(l.kind) {
				if !l.data {
					l.tmpl = templateHash(l.text)
				}
				n := len(arena)
				var ntok int
				ntok, arena = q.tokenStats(z, prefix(l.text, maxPlainLine), arena)
				l.ntok = int32(ntok)
				l.hits = arena[n:len(arena):len(arena)]
			}
		}
	}
	n := min(runtime.GOMAXPROCS(0), 4)
	if n < 2 || len(ls) < parallelMinLines {
		work(ls)
		return
	}
	var wg sync.WaitGroup
	size := (len(ls) + n - 1) / n
	for lo := 0; lo < len(ls); lo += size {
		part := ls[lo:min(lo+size, len(ls))]
		wg.Go(func() { work(part) })
	}
	wg.Wait()
}

// looksBinary reports whether text is binary data rather than output:
// more than 1% of the characters of its first 8 KiB are control
// characters other than tab, newline, carriage return, form feed and
// escape. NUL-padded executables, UTF-16, compressed and random bytes all
// have them. U+FFFD (how Claude Code passes invalid UTF-8) does not count:
// text in a legacy 8-bit encoding such as Latin-1 has one for each
// accented letter, and its lines are still the command's output.
func looksBinary(text string) bool {
	sample := text[:min(len(text), 8192)]
	ctrl, n := 0, 0
	for _, r := range sample {
		n++
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f' && r != 0x1b || r == 0x7f {
			ctrl++
		}
	}
	return n > 0 && ctrl*100 > n
}

// maxScopeDistance is how many lines above an error scopeLine looks.
const maxScopeDistance = 200

// scopeLine returns the index of the nearest line above ls[i], within
// maxScopeDistance lines, that names the folder or file the following
// lines are about: make's "make[2]: Entering directory '…'" (unless its
// "Leaving directory" came after it) or patch's "checking file …" and
// "patching file …"; -1 when there is none.
func scopeLine(ls []line, i int) int {
	for j := i - 1; j >= 0 && j >= i-maxScopeDistance; j-- {
		t := ls[j].text
		switch {
		case strings.HasPrefix(t, "make") && strings.Contains(t, ": Leaving directory "):
			return -1
		case strings.HasPrefix(t, "make") && strings.Contains(t, ": Entering directory "):
			return j
		case strings.HasPrefix(t, "checking file ") || strings.HasPrefix(t, "patching file "):
			return j
		}
	}
	return -1
}

// assignTiers sets each line's tier from its kind and its neighbours.
func assignTiers(ls []line, data bool) {
	for i := range ls {
		switch ls[i].kind {
		case kindSummary:
			ls[i].tier = tierSummary
		case kindError:
			ls[i].tier = tierError
		case kindWarning:
			ls[i].tier = tierWarning
		case kindFrame:
			lib := isLibraryFrame(ls[i].text)
			if i+1 < len(ls) && ls[i+1].kind == kindFrame && indent(ls[i+1].text) > indent(ls[i].text) {
				// A Go "pkg.Func(args)" or "created by" line, or a Rust
				// "  3: crate::func" line, belongs to the more indented
				// "file:line" frame under it.
				lib = isLibraryFrame(ls[i+1].text)
			}
			if lib {
				ls[i].tier = tierRank
			} else {
				ls[i].tier = tierLocate
			}
		case kindTestLog:
			ls[i].tier = tierRank // a passing test's log; promoteFailingLogs keeps a failing one's
		case kindExcerpt:
			// Quoted source follows a diagnostic (or more quoted source);
			// elsewhere a line such as "  | alt-package" is just text.
			ls[i].tier = tierRank
			if p := prevNonBlank(ls, i); p >= 0 && p == i-1 {
				switch ls[p].kind {
				case kindError, kindWarning, kindExcerpt, kindFrame:
					ls[i].tier = tierContext
				}
			}
		default:
			ls[i].tier = tierRank
		}
	}
	if !data {
		demoteItemVerdicts(ls)
	}
	// The last non-blank lines of a stream are its verdict, unless they are
	// more of the same (the tail of a run of similar lines, such as the last
	// of 200 download lines, whose order may vary between runs).
	n := 0
	for i := len(ls) - 1; i >= 0 && n < tailSummaryLines; i-- {
		if ls[i].kind == kindBlank {
			continue
		}
		n++
		if data && !(n == 1 && ls[i].kind == kindSummary) || ls[i].tier <= tierSummary {
			continue
		}
		if p := prevNonBlank(ls, i); p >= 0 && ls[i].tier == tierRank && shapeKey(ls[p].text, data) == shapeKey(ls[i].text, data) &&
			(data || templateHash(ls[p].text) == templateHash(ls[i].text)) {
			continue // one more of the same template ("npm verbose exit 0" is not one more "npm verbose cwd")
		}
		ls[i].tier = tierSummary
	}
	if data {
		// The head of a data listing (the newest commit, the first matches)
		// and its last lines (where it ends) are kept whatever the ranking
		// says.
		for i, n := 0, 0; i < len(ls) && n < dataHeadLines; i++ {
			if ls[i].kind != kindBlank {
				promote(&ls[i], tierLocate)
				n++
			}
		}
		for i, n := len(ls)-1, 0; i >= 0 && n < dataTailLines; i-- {
			if ls[i].kind != kindBlank && ls[i].skip == 0 {
				promote(&ls[i], tierLocate)
				n++
			}
		}
		return
	}
	promoteFailingLogs(ls)
	for i := range ls {
		switch {
		case ls[i].kind == kindPlain && i+1 < len(ls) && ls[i+1].kind == kindFrame && indent(ls[i+1].text) > indent(ls[i].text) &&
			strings.HasSuffix(ls[i].text, ")") && goIndentedFuncRe.MatchString(ls[i].text):
			// "  main.main.func1()" over "      /x/main.go:12 +0x3c" (race
			// reports): the function line goes with its frame.
			ls[i].kind = kindFrame
			ls[i].tier = ls[i+1].tier
		case isHeading(ls, i):
			// "The following NEW packages will be installed:" and its list.
			promote(&ls[i], tierWarning)
		case ls[i].kind == kindFrame && ls[i].tier == tierLocate && i > 0 && strings.HasPrefix(ls[i].text, "\t"):
			// Go stack frames come in pairs: "pkg.Func(args)" then "\tfile:line".
			promote(&ls[i-1], tierLocate)
		case strings.Contains(ls[i].text, " panicked at "):
			// Rust: "thread 'main' panicked at src/lib.rs:2:53:" then the
			// panic's message on its own line.
			promote(&ls[i], tierError)
			if n := nextNonBlank(ls, i); n > 0 && n <= i+2 {
				promote(&ls[n], tierError)
			}
		case isSectionRule(ls[i].text):
			// pytest's "____ test_name ____" opens a failure's report.
			promote(&ls[i], tierLocate)
		case strings.HasPrefix(ls[i].text, "goroutine ") && strings.HasSuffix(ls[i].text, "]:"):
			// The header of a Go panic's stack: "goroutine 7 [running]:".
			promote(&ls[i], tierLocate)
		case ls[i].kind == kindError || ls[i].kind == kindWarning:
			// The line that introduces a diagnostic goes with it: gcc's
			// "x.c: In function 'f':", go build's "# example.com/pkg".
			if i > 0 && (strings.HasSuffix(strings.TrimSpace(ls[i-1].text), ":") || strings.HasPrefix(ls[i-1].text, "# ")) {
				promote(&ls[i-1], ls[i].tier)
			}
			if ls[i].kind == kindError {
				markContinuation(ls, i)
				// A failing Go test's log lines come before its "--- FAIL".
				for j := i - 1; j >= 0 && ls[j].kind == kindTestLog; j-- {
					promote(&ls[j], tierError)
				}
				// The line that says where the error happened, some lines
				// up: make's "Entering directory 'sub27'" (every sub
				// folder has its util3.c), patch's "checking file x.go".
				if j := scopeLine(ls, i); j >= 0 {
					promote(&ls[j], tierError)
				}
			}
		}
	}
}

// demoteItemVerdicts ranks the verdict lines whose template recurs
// (frequentTemplate times or more in the stream, see templateHash): such a
// line is one item's result among many ("ok  \tpkgN\t0.12s" for each of
// 600 packages of "go test ./..."), not the run's verdict, so it collapses
// with its like (runs, groupFrequent) and the one that differs (a FAIL, a
// slow package) stands out as an anomaly instead of 600 verdicts filling
// the summary tier.
func demoteItemVerdicts(ls []line) {
	count := map[uint64]int{}
	for i := range ls {
		if ls[i].kind == kindSummary && ls[i].tier == tierSummary && !ls[i].ready {
			count[ls[i].tmpl]++
		}
	}
	for i := range ls {
		if ls[i].kind == kindSummary && ls[i].tier == tierSummary && !ls[i].ready && count[ls[i].tmpl] >= frequentTemplate {
			ls[i].tier = tierRank
		}
	}
}

// promoteFailingLogs keeps the log lines of failing Go tests (tierError):
// the lines of kindTestLog ("    x_test.go:12: message") while the test
// they belong to is one that fails somewhere in the stream ("--- FAIL:
// NAME", at any depth). A line belongs to the test named by the last
// "=== RUN", "=== CONT" or "=== NAME" line (go test -v) or by the last
// "--- FAIL:"/"--- PASS:" line (plain go test prints a failing test's log
// after its verdict). With -v a passing test's log is printed too; it is
// just ranked.
func promoteFailingLogs(ls []line) {
	failing := map[string]bool{}
	for i := range ls {
		if name, ok := goTestVerdict(ls[i].text, "--- FAIL: "); ok {
			failing[name] = true
		}
	}
	if len(failing) == 0 {
		return
	}
	current := ""
	for i := range ls {
		t := strings.TrimLeft(ls[i].text, " \t")
		switch {
		case strings.HasPrefix(t, "=== RUN ") || strings.HasPrefix(t, "=== CONT ") || strings.HasPrefix(t, "=== NAME "):
			f := strings.Fields(t)
			current = ""
			if len(f) >= 3 {
				current = f[2]
			}
		case strings.HasPrefix(t, "--- FAIL: ") || strings.HasPrefix(t, "--- PASS: ") || strings.HasPrefix(t, "--- SKIP: "):
			current, _ = goTestVerdict(t, t[:len("--- FAIL: ")])
		case ls[i].kind == kindTestLog && failing[current]:
			promote(&ls[i], tierError)
		}
	}
}

// goTestVerdict returns the test name of a go test verdict line that
// starts with prefix after its indentation ("    --- FAIL: TestX/sub
// (0.00s)" gives "TestX/sub").
func goTestVerdict(l, prefix string) (string, bool) {
	t, ok := strings.CutPrefix(strings.TrimLeft(l, " \t"), prefix)
	if !ok {
		return "", false
	}
	name, _, _ := strings.Cut(t, " ")
	return name, name != ""
}

// interruptedTailLines is how many last non-blank lines of each stream an
// interrupted command keeps: where it was when it stopped.
const interruptedTailLines = 5

// keepTail promotes the last n non-blank lines of a stream to tierSummary,
// even when they are more of a run of similar lines.
func keepTail(ls []line, n int) {
	for i := len(ls) - 1; i >= 0 && n > 0; i-- {
		if ls[i].kind != kindBlank && ls[i].skip == 0 {
			promote(&ls[i], tierSummary)
			ls[i].drop = false
			n--
		}
	}
}

func nextNonBlank(ls []line, i int) int {
	for i++; i < len(ls); i++ {
		if ls[i].kind != kindBlank {
			return i
		}
	}
	return -1
}

// isSectionRule reports whether a line is a title between rules of '_'
// ("_____ test_export_writes_report _____", pytest's failure sections).
func isSectionRule(s string) bool {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "___") || !strings.HasSuffix(t, "___") {
		return false
	}
	title := strings.TrimSpace(strings.Trim(t, "_"))
	return title != "" && !strings.Contains(title, "___")
}

func prevNonBlank(ls []line, i int) int {
	for i--; i >= 0; i-- {
		if ls[i].kind != kindBlank {
			return i
		}
	}
	return -1
}

// isHeading reports whether ls[i] introduces an indented list: a plain,
// unindented line ending in ':' followed by a more indented line.
func isHeading(ls []line, i int) bool {
	l := ls[i]
	return l.kind == kindPlain && i+1 < len(ls) && indent(l.text) == 0 && strings.HasSuffix(l.text, ":") &&
		indent(ls[i+1].text) > 0 && ls[i+1].kind != kindBlank
}

// markContinuation promotes the lines that continue an error: more indented
// lines right after it (Go's "have/want", an assertion diff, a source line
// under a Python frame). The first three become tierLocate, later ones
// tierContext; the block ends at a blank line, a line at the error's
// indentation or less, or a passing test's result line (jest's "FAIL
// file" is followed by the file's test tree, whose "✓" lines are results,
// not the failure's text).
func markContinuation(ls []line, i int) {
	base := indent(ls[i].text)
	n := 0
	for j := i + 1; j < len(ls) && n < 12; j++ {
		l := &ls[j]
		if l.kind == kindBlank || l.kind == kindError || indent(l.text) <= base && l.kind != kindExcerpt || isPassResult(l.text) {
			return
		}
		if l.kind == kindFrame {
			continue // frames already have their tier
		}
		if n < 3 {
			promote(l, tierLocate)
		} else {
			promote(l, tierContext)
		}
		n++
	}
}

// passMarks open a passing test's result line in the JavaScript reporters
// (jest, mocha, node:test spec).
var passMarks = [...]string{"✓", "✔", "√"}

// isPassResult reports whether s, its indentation aside, starts with a
// pass mark.
func isPassResult(s string) bool {
	t := strings.TrimLeft(s, " \t")
	for _, m := range passMarks {
		if strings.HasPrefix(t, m) {
			return true
		}
	}
	return false
}

func promote(l *line, tier int8) {
	if l.kind != kindBlank && tier < l.tier {
		l.tier = tier
	}
}

// indent is the width of a line's leading whitespace (a tab counts 4).
func indent(s string) int {
	w := 0
	for _, c := range s {
		switch c {
		case ' ':
			w++
		case '\t':
			w += 4
		default:
			return w
		}
	}
	return w
}

// shapeKey is what makes lines "similar" for run collapsing: indentation
// and the first two words, each run of digits replaced by one '0'. Outside
// data listings a word that names a file or a qualified identifier (it holds
// '/', '\\', "::" or an inner '.') counts as one placeholder, so per-test
// lines such as "test tests::adds ... ok" (cargo) or "x.py::test_a PASSED"
// (pytest -v) are similar; in a listing every path is its own line.
func shapeKey(s string, data bool) string {
	return string(appendShapeKey(make([]byte, 0, 48), s, data))
}

// appendShapeKey appends shapeKey(s, data) to b.
func appendShapeKey(b []byte, s string, data bool) []byte {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		b = append(b, s[i])
		i++
	}
	for words := 0; words < 2 && i < len(s); words++ {
		if words > 0 {
			b = append(b, ' ')
		}
		start := i
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			i++
		}
		w := s[start:i]
		if !data && isNameLike(w) {
			b = append(b, '\x00')
		} else {
			for k := 0; k < len(w); k++ {
				c := w[k]
				if isDigit(c) {
					for k+1 < len(w) && isDigit(w[k+1]) {
						k++
					}
					c = '0'
				}
				b = append(b, c)
			}
		}
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	return b
}

// isNameLike reports whether a word names a file or a qualified identifier.
func isNameLike(w string) bool {
	if strings.IndexByte(w, '/') >= 0 || strings.IndexByte(w, '\\') >= 0 || strings.Contains(w, "::") {
		return true
	}
	d := strings.IndexByte(w, '.')
	return d > 0 && d < len(w)-1 && strings.Trim(w, ".") == w
}

// runRepresentative picks the group of lines that stands for a collapsed
// run of period p (groups of p lines): the one holding the most distinct
// query terms ("Setting up python3-pytest" for "apt-get install
// python3-pytest"), ties broken by the smallest text. Both criteria ignore
// the order of the groups. It returns the index in run of the group's first
// line. The terms come from the lines' hits (see tokenStats).
func runRepresentative(run []line, p int, q *query) int {
	seen := make([]bool, len(q.terms))
	best, bestScore := 0, -1
	for g := 0; g+p <= len(run); g += p {
		score := 0
		clear(seen)
		for _, l := range run[g : g+p] {
			for _, h := range l.hits {
				if h.term >= 0 && !seen[h.term] {
					seen[h.term] = true
					score++
				}
			}
		}
		if score > bestScore || score == bestScore && compareJoined(run[g:g+p], run[best:best+p]) < 0 {
			best, bestScore = g, score
		}
	}
	return best
}

// repText is a run's representative group, its lines joined by '\n'.
func (u *unit) repText(lines []line) string {
	var b strings.Builder
	b.Grow(u.repLen(lines))
	for i, l := range lines[u.repAt : u.repAt+u.period] {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.show)
	}
	return b.String()
}

// repLen is the planned length of u.repText(lines) (see planLen).
func (u *unit) repLen(lines []line) int {
	n := u.period - 1
	for i := u.repAt; i < u.repAt+u.period; i++ {
		n += lines[i].planLen()
	}
	return n
}

// compareJoined compares the texts of a and b, each joined by '\n', as
// strings.Compare would, without joining them; a and b have the same
// length.
func compareJoined(a, b []line) int {
	for i := range a {
		x, y := a[i].text, b[i].text
		if x == y {
			continue
		}
		n := min(len(x), len(y))
		if c := strings.Compare(x[:n], y[:n]); c != 0 {
			return c
		}
		// One is a prefix of the other: compare the bytes that follow it in
		// the joined texts ('\n', or the end after the last line).
		next := func(s string) int {
			switch {
			case len(s) > n:
				return int(s[n])
			case i == len(a)-1:
				return -1
			}
			return '\n'
		}
		return cmp.Compare(next(x), next(y))
	}
	return 0
}

// buildUnits groups lines into units (see unit); q holds the terms runs
// are represented by (see runRepresentative), maxP the longest group of
// lines a run may repeat (see periodAt).
func buildUnits(lines []line, q *query, maxP int) []unit {
	units := make([]unit, 0, len(lines)/4+1)
	// The shape keys of all ranked lines, in one allocation.
	keys := make([]byte, 0, 16*len(lines))
	ends := make([]int, 0, len(lines))
	for i := range lines {
		if lines[i].tier == tierRank && lines[i].kind != kindBlank && !lines[i].drop {
			keys = appendShapeKey(keys, lines[i].text, lines[i].data)
			ends = append(ends, len(keys))
		}
	}
	allKeys, k, start := string(keys), 0, 0
	for i := range lines {
		if lines[i].tier == tierRank && lines[i].kind != kindBlank && !lines[i].drop {
			lines[i].key = allKeys[start:ends[k]]
			start = ends[k]
			k++
		}
	}
	add := func(u unit) {
		u.stream = int(lines[u.first].stream)
		for i := u.first; i <= u.last; i++ {
			lines[i].unit = int32(len(units))
		}
		units = append(units, u)
	}
	defer func() {
		// fromEnd: count the non-blank lines after each unit in its stream.
		after := 0
		for k := len(units) - 1; k >= 0; k-- {
			if k+1 < len(units) && units[k+1].stream != units[k].stream {
				after = 0
			}
			units[k].fromEnd = after
			after += units[k].last - units[k].first + 1
		}
	}()
	for i := 0; i < len(lines); {
		l := lines[i]
		if l.kind == kindBlank || l.drop {
			i++
			continue
		}
		if l.tier < tierRank {
			cost := l.planLen() + 1 + blankReserve + markerReserve
			if l.group > 0 {
				cost += len(groupMarker(int(l.group)-1)) + 1
			}
			add(unit{first: i, last: i, tier: int(l.tier), rank: int(l.anom), cost: cost})
			i++
			continue
		}
		// A stretch of ranked lines in one stream.
		j := i
		for j < len(lines) && lines[j].stream == l.stream && lines[j].tier == tierRank && lines[j].kind != kindBlank && !lines[j].drop {
			j++
		}
		for k := i; k < j; {
			if p, span := periodAt(lines, k, j, maxP); span > 0 {
				u := unit{first: k, last: k + span - 1, tier: tierRank, run: true, repAt: k + runRepresentative(lines[k:k+span], p, q), period: p}
				u.cost = u.repLen(lines) + 1 + len(runMarker(span-p)) + 1 + blankReserve + markerReserve
				add(u)
				k += span
				continue
			}
			// A block: up to maxBlockLines lines, stopping before a run.
			b := k
			cost := markerReserve + blankReserve
			for b < j && b-k < maxBlockLines {
				if _, span := periodAt(lines, b, j, maxP); b > k && span > 0 {
					break
				}
				cost += lines[b].planLen() + 1
				b++
			}
			add(unit{first: k, last: b - 1, tier: tierRank, cost: cost})
			k = b
		}
		i = j
	}
	return units
}

// maxPeriod is the longest repeating group of lines collapsed as a run:
// "=== RUN X" / "--- PASS: X" pairs (go test -v) have period 2, TAP's
// subtest blocks up to 5.
const maxPeriod = 5

// periodAt finds a run starting at lines[k] (before end): groups of p
// consecutive lines (1 <= p <= maxP) repeating with the same shape
// keys, at least 3 groups and minRun lines long. It returns the period and
// the run's length in lines (a whole number of groups), preferring the
// longest run and then the shortest period, or 0, 0 when there is none.
func periodAt(lines []line, k, end, maxP int) (period, span int) {
	for p := 1; p <= maxP && k+3*p <= end; p++ {
		m := 0
		for idx := k + p; idx < end && lines[idx].key == lines[idx-p].key; idx++ {
			m++
		}
		s := p + m/p*p
		if s/p >= 3 && s >= minRun && s > span {
			period, span = p, s
		}
	}
	return period, span
}

func runMarker(n int) string { return "[… " + itoa(n) + " similar lines omitted …]" }

// groupMarker follows a template's exemplar (see groupFrequent): the
// number of other lines of its shape in the stream, wherever they are.
func groupMarker(n int) string {
	return "[… " + itoa(n) + " more lines of this shape in the output …]"
}

func gapMarker(n int) string { return "[… " + plural(n, "line") + " omitted …]" }

// selectionOrder lists unit indices by tier, then within tierRank by rank,
// within tierError by how common the error's shape is (rankErrorsByShape)
// and within other tiers by position.
func selectionOrder(units []unit) []int {
	order := make([]int, len(units))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		ua, ub := &units[a], &units[b]
		if ua.tier != ub.tier {
			return cmp.Compare(ua.tier, ub.tier)
		}
		switch ua.tier {
		case tierRank:
			if ua.rank != ub.rank {
				return cmp.Compare(ua.rank, ub.rank)
			}
		case tierSummary:
			// The final verdicts first: nearest the end of their stream.
			if ua.fromEnd != ub.fromEnd {
				return cmp.Compare(ua.fromEnd, ub.fromEnd)
			}
		case tierAnomaly:
			// Field outliers before rare shapes.
			if ua.rank != ub.rank {
				return cmp.Compare(ub.rank, ua.rank)
			}
		case tierError:
			// Errors of a rare shape before the many of a common one.
			if ua.rank != ub.rank {
				return cmp.Compare(ua.rank, ub.rank)
			}
		}
		return cmp.Compare(a, b)
	})
	return order
}

// rankErrorsByShape sets the rank of every error unit to the number of
// error units whose first line has its shape (errorShape), so that
// selection takes a rare error before the 400th of one kind: one "Cannot
// find module 'pg'" among 400 "Property 'pN' does not exist" is likely the
// cause, and the budget holds only some of the 400. Within one shape the
// errors stay in output order.
func rankErrorsByShape(units []unit, lines []line) {
	count := map[uint64]int{}
	shapes := make([]uint64, len(units))
	for i := range units {
		if units[i].tier == tierError {
			shapes[i] = errorShape(lines[units[i].first].text)
			count[shapes[i]]++
		}
	}
	if len(count) < 2 {
		return
	}
	for i := range units {
		if units[i].tier == tierError {
			units[i].rank = count[shapes[i]]
		}
	}
}

// errorShape is the template hash (templateHash) of an error line with its
// quoted spans ('x', "x", `x`, ‘x’) and its path-like words (holding a / or
// a \) masked: the names an error message quotes and the file it points at
// vary between errors of one kind.
func errorShape(text string) uint64 {
	var b strings.Builder
	for _, w := range strings.Fields(text) {
		if strings.ContainsAny(w, "/\\") {
			w = "<path>"
		}
		b.WriteString(w)
		b.WriteByte(' ')
	}
	s := b.String()
	b.Reset()
	var close rune
	for _, r := range s {
		switch {
		case close != 0:
			if r == close {
				close = 0
				b.WriteString("<q>")
			}
		case r == '\'' || r == '"' || r == '`':
			close = r
		case r == '‘':
			close = '’'
		default:
			b.WriteRune(r)
		}
	}
	return templateHash(b.String())
}

// rankShareDivisor and rankMinBytes set rankBudget: ranked lines (the
// context the ranking picks, not errors, verdicts, locations or
// anomalies) take at most a tenth of the output's bytes, and 1 KiB at
// least. A 5 KB test run then keeps its failures and verdict and a few
// lines of context, not 5 KB of passing tests; a 200 KB log still fills
// the budget.
const (
	rankShareDivisor = 10
	rankMinBytes     = 1024
)

// rankBudget is the most bytes ranked lines may take in the extract of an
// output of size bytes.
func rankBudget(size int) int { return max(rankMinBytes, size/rankShareDivisor) }

// choose picks units greedily in order while their estimated cost fits the
// budget: first with each tier capped at its share (tierCaps), then without
// caps, ranked units within rankBytes in all. The result lists the chosen
// units in the order they were taken, so dropping from its end drops the
// least important.
func choose(units []unit, order []int, budget, rankBytes int) []int {
	var chosen []int
	taken := make([]bool, len(units))
	used := markerReserve // one more marker than units, at most
	var tierUsed [tierRank + 1]int
	// A unit next to a taken one (same stream, nothing but blank lines
	// between) adds no gap marker.
	adjacent := func(u int) bool {
		return u > 0 && taken[u-1] && units[u-1].stream == units[u].stream ||
			u+1 < len(units) && taken[u+1] && units[u+1].stream == units[u].stream
	}
	for pass := 0; pass < 2; pass++ {
		for _, u := range order {
			if taken[u] || pass == 0 && units[u].tier > tierAnomaly {
				continue // the first pass only reserves room for verdicts, errors and anomalies
			}
			c := units[u].cost
			if adjacent(u) {
				c -= markerReserve
			} else if units[u].tier == tierContext {
				continue // a source excerpt is worth nothing without its diagnostic
			}
			if used+c > budget {
				continue
			}
			t := units[u].tier
			if pass == 0 && float64(tierUsed[t]+c) > tierCaps[t]*float64(budget) {
				continue
			}
			if t == tierRank && tierUsed[t]+c > rankBytes {
				continue
			}
			taken[u] = true
			chosen = append(chosen, u)
			used += c
			tierUsed[t] += c
		}
	}
	// Source excerpts skipped for want of a kept neighbour may have one now.
	for changed := true; changed; {
		changed = false
		for _, u := range order {
			if taken[u] || units[u].tier != tierContext || !adjacent(u) {
				continue
			}
			if c := units[u].cost - markerReserve; used+c <= budget {
				taken[u] = true
				chosen = append(chosen, u)
				used += c
				changed = true
			}
		}
	}
	return chosen
}

// render writes the chosen units of each stream in original order, with a
// marker for every gap that holds a line of text. Blank lines are kept
// only between two kept lines, and counted in a marker beside them.
func render(lines []line, units []unit, chosen []int) (stdout, stderr string, kept int) {
	keep := make([]bool, len(units))
	for _, u := range chosen {
		keep[u] = true
	}
	isKept := func(i int) bool { return lines[i].unit >= 0 && keep[lines[i].unit] }
	var out [2]strings.Builder
	gap, gapText := 0, 0 // omitted lines, of which not blank
	var blanks []string  // the gap's blank lines, as printed
	// flush ends a gap: with a marker when it holds a line of text; a gap
	// of blank lines only is written as printed between two kept lines
	// (before says a kept line follows), and dropped at a stream's edge.
	flush := func(b *strings.Builder, before bool) {
		switch {
		case gapText > 0:
			b.WriteString(gapMarker(gap))
			b.WriteByte('\n')
		case before && b.Len() > 0:
			for _, bl := range blanks {
				b.WriteString(bl)
				b.WriteByte('\n')
			}
		}
		gap, gapText, blanks = 0, 0, blanks[:0]
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		b := &out[l.stream]
		if i > 0 && lines[i-1].stream != l.stream {
			flush(&out[lines[i-1].stream], false)
		}
		switch {
		case l.skip > 0:
			gap += int(l.skip)
			gapText += int(l.skip)
		case l.drop:
			gap++
			gapText++
		case l.kind == kindBlank:
			if i > 0 && isKept(i-1) && gap == 0 && i+1 < len(lines) && lines[i+1].stream == l.stream && isKept(i+1) {
				b.WriteString(l.show) // a blank line as printed: "   " stays "   "
				b.WriteByte('\n')
			} else {
				gap++
				blanks = append(blanks, l.show)
			}
		case !isKept(i):
			gap++
			gapText++
		case units[l.unit].run:
			flush(b, true)
			u := units[l.unit]
			b.WriteString(u.repText(lines))
			b.WriteByte('\n')
			b.WriteString(runMarker(u.last - u.first + 1 - u.period))
			b.WriteByte('\n')
			kept++
			i = u.last
		default:
			flush(b, true)
			b.WriteString(l.show)
			b.WriteByte('\n')
			if l.group > 1 {
				b.WriteString(groupMarker(int(l.group) - 1))
				b.WriteByte('\n')
			}
			kept++
		}
	}
	if len(lines) > 0 {
		flush(&out[lines[len(lines)-1].stream], false)
	}
	return out[0].String(), out[1].String(), kept
}
