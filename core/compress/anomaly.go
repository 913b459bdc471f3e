package compress

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Anomaly detection: in an output made mostly of a few repeated line
// shapes (a web server's access log, a worker's "processed job" lines, a
// package manager's fetch lines), the lines that matter are the unusual
// ones, and collapsing runs of similar lines would hide exactly them. So
// before runs are built, the ranked lines of a stream are grouped by
// template and two kinds of line are kept (tierAnomaly), whatever the
// ranking says:
//
//   - a rare shape: a line whose template occurs at most
//     max(2, lines/2000) times in a stream where templates that occur ten
//     times or more cover at least 60% of the lines;
//   - a field outlier, in any stream: in a template with fieldMinValues
//     lines or more,
//     a numeric field (a number at the same place: "status=", "dur=", the
//     n-th bare number, a JSON key) whose value is either
//     a rare category (integers without a unit taking at most
//     categoricalMaxDistinct values, one of which covers half the lines,
//     the rare one at most 1% of them: status=503 among status=200) or a
//     high outlier (a modified z-score of its log of outlierZ or more,
//     Iglewicz and Hoaglin 1993, and at least outlierFactor times the median plus ten
//     times the finest printing resolution: dur=30001ms among 20–40 ms,
//     a 9.0 MB download among 200–600 kB ones).
//
// Templates follow the masking step of log template mining (Drain: He,
// Zhu, Zheng and Lyu, "Drain: An Online Log Parsing Approach with Fixed
// Depth Tree", ICWS 2017): a line's normalised text, with digit runs
// masked and tokens that name files, URLs or qualified identifiers (see
// isNameLike) or look like generated ids masked whole (templateHash). Exact templates are
// used rather than Drain's similarity tree: they are deterministic and
// linear, and the field rules find what a similarity threshold would merge.
// The thresholds are relative (shares and ratios of the stream's own
// values), so they hold for logs of any size and any unit; timings that
// differ between two runs of a command stay far from them, which keeps
// pairs of runs alike.
const (
	anomalyMinLines        = 50  // ranked lines a stream needs to have a usual shape
	frequentTemplate       = 10  // lines a template needs to count as usual
	frequentCoverPercent   = 60  // share of lines in usual templates for rare shapes to mean anything
	rareMaxPercent         = 5   // more rare lines than this share: the output has no usual shape
	fieldMinValues         = 8   // lines of a template for its fields to have a distribution
	categoricalMaxDistinct = 16  // values a categorical field may take
	outlierZ               = 3.5 // the modified z-score of an outlier's log value (Iglewicz and Hoaglin's cut-off)
	outlierFactor          = 10  // and it is at least this many times the median plus ten times the resolution
	// minOutlierMs is the least duration that can be an outlier: below a
	// tenth of a second a duration's spread is scheduling noise (a test
	// runner's first test warming up), not an incident, and it differs
	// between two runs of one command.
	minOutlierMs = 100
)

// Strengths of an anomaly (line.anom), strongest first in selection.
const (
	anomNone  = 0
	anomRare  = 1 // a rare shape
	anomField = 2 // a field outlier
)

// markAnomalies finds the rare shapes and field outliers among the ranked
// lines of one stream (see the rules above) and promotes them to
// tierAnomaly. With fieldsOnly (a data listing that measures things: ls
// -l, du, ps, df) it looks for field outliers alone, a 7 GB file among
// kilobyte ones or a process at 98% CPU among idle ones: a listing's rare
// shapes are just other names, and its lines are never grouped.
func markAnomalies(ls []line, fieldsOnly bool) {
	var idx []int32
	for i := range ls {
		if ls[i].tier == tierRank && ls[i].kind != kindBlank && !ls[i].ready {
			idx = append(idx, int32(i))
		}
	}
	if len(idx) < fieldMinValues {
		return
	}
	tmpl := make([]uint64, len(idx))
	count := make(map[uint64]int32, 64)
	for k, i := range idx {
		h := ls[i].tmpl // templateHash(ls[i].text), computed with the line
		if ls[i].data {
			h = templateHash(ls[i].text) // not computed for data lines
		}
		tmpl[k] = h
		count[h]++
	}
	if fieldsOnly {
		markFieldOutliers(ls, idx, tmpl, count, true)
		return
	}
	covered := 0
	for _, h := range tmpl {
		if count[h] >= frequentTemplate {
			covered++
		}
	}
	// Rare shapes mean something only where there is a usual one.
	repetitive := len(idx) >= anomalyMinLines && covered*100 >= len(idx)*frequentCoverPercent
	if repetitive {
		rareMax := int32(max(2, len(idx)/2000))
		var rare []int32
		for k, h := range tmpl {
			if count[h] <= rareMax {
				rare = append(rare, idx[k])
			}
		}
		if len(rare)*100 <= len(idx)*rareMaxPercent {
			for _, i := range rare {
				ls[i].anom = anomRare
			}
		}
	}
	markFieldOutliers(ls, idx, tmpl, count, false)
	if !repetitive {
		return
	}
	logLike := 0
	for _, i := range idx {
		if t := ls[i].text; strings.Contains(t[:min(len(t), 48+len(phTime))], phTime) || opensWithLevel(t) {
			logLike++
		}
	}
	// A log's usual templates are interchangeable events; elsewhere only
	// per-item verdicts are (see demoteItemVerdicts): a go test -v run's
	// "=== RUN" lines belong next to the logs that follow them.
	groupFrequent(ls, idx, tmpl, count, logLike*10 >= len(idx)*6)
}

// markFieldOutliers marks and promotes to tierAnomaly the lines idx of ls
// that hold a field outlier within their template (tmpl, count: each
// line's template and the templates' sizes), and every line already
// marked (a rare shape). With largest (a listing of measures) it also
// marks the lines holding a heavy-tailed field's largest values
// (fieldStat.largest): the biggest files of wc -l, the largest changes
// of git diff --stat, whose log-scale z-scores stay under outlierZ.
func markFieldOutliers(ls []line, idx []int32, tmpl []uint64, count map[uint64]int32, largest bool) {
	fields := make(map[uint64]*fieldStat)
	for k, i := range idx {
		if count[tmpl[k]] < fieldMinValues {
			continue
		}
		scanFields(ls[i].show, tmpl[k], func(key uint64, v, res float64, integer, time, padded bool) {
			f := fields[key]
			if f == nil {
				f = &fieldStat{integer: true, res: res, time: time}
				fields[key] = f
			}
			f.padded = f.padded || padded
			f.vals = append(f.vals, v)
			f.lines = append(f.lines, i)
			f.res = min(f.res, res)
			f.integer = f.integer && integer
		})
	}
	for _, f := range fields {
		for _, i := range f.outliers() {
			ls[i].anom = anomField
		}
		if largest {
			for _, i := range f.largest() {
				ls[i].anom = anomField
			}
		}
	}
	for _, i := range idx {
		if ls[i].anom != anomNone {
			ls[i].tier = tierAnomaly
		}
	}
}

// groupFrequent shows each usual template of a repetitive log (60% of its
// ranked lines open with a timestamp or a level, as looksLikeLog asks) as one
// exemplar and a count (its other lines are dropped: counted in the gap
// markers, never shown), as log summarisers do: the exemplar is the
// member holding the most query terms, then the smallest normalised text,
// then the first, so two runs that differ in volatile tokens or in the
// order of their lines pick alike. Anomalies among the members stay. Outside
// a log (log false) only templates of per-item verdicts are grouped (see
// demoteItemVerdicts).
func groupFrequent(ls []line, idx []int32, tmpl []uint64, count map[uint64]int32, log bool) {
	best := map[uint64]int32{}
	for k, i := range idx {
		h := tmpl[k]
		if count[h] < frequentTemplate || ls[i].anom != anomNone || !log && ls[i].kind != kindSummary {
			continue
		}
		b, ok := best[h]
		if !ok || betterExemplar(&ls[i], &ls[b]) {
			best[h] = i
		}
	}
	for k, i := range idx {
		h := tmpl[k]
		b, ok := best[h]
		switch {
		case !ok || ls[i].anom != anomNone:
		case b == i:
			ls[i].tier = tierLocate
			ls[i].group = count[h]
		default:
			ls[i].drop = true
		}
	}
}

// betterExemplar reports whether a should stand for its template rather
// than b: more distinct query terms, then the smaller normalised text.
func betterExemplar(a, b *line) bool {
	ha, hb := distinctTerms(a.hits), distinctTerms(b.hits)
	if ha != hb {
		return ha > hb
	}
	return a.text < b.text
}

// distinctTerms counts the distinct query terms among a line's hits.
func distinctTerms(hits []queryHit) int {
	n := 0
	for i, h := range hits {
		if h.term < 0 {
			continue
		}
		dup := false
		for _, g := range hits[:i] {
			dup = dup || g.term == h.term
		}
		if !dup {
			n++
		}
	}
	return n
}

// fieldStat holds one field's values over the lines of a template.
type fieldStat struct {
	vals    []float64 // in the unit family's base unit (ms, bytes)
	time    bool      // the values are durations (ms)
	lines   []int32   // the line of each value
	res     float64   // the finest printing resolution, in the base unit (0.01 s is 10 ms)
	integer bool      // every value an integer without a unit
	padded  bool      // some value is written zero-padded ("000" of a clock's milliseconds): a code, not a measure
}

// outliers returns the lines whose value is a rare category or a high
// outlier of the field (see markAnomalies).
// largestShare and largestSpread set fieldStat.largest: the largest
// values, one in twenty of them and at most three, of a field whose
// largest value is at least largestSpread times its median.
const (
	largestMax    = 3
	largestShare  = 20
	largestSpread = 4
)

// largest returns the lines of the field's largest values (see
// largestShare) when the field is heavy-tailed: a listing's biggest
// entries, which a reader of wc -l or du looks for first. A field of
// mostly distinct integers spread evenly (process ids, line numbers) has
// its largest value near twice its median and is left alone.
func (f *fieldStat) largest() []int32 {
	n := len(f.vals)
	k := min(largestMax, n/largestShare)
	if n < fieldMinValues || k == 0 {
		return nil
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(f.vals[b], f.vals[a]) })
	med := median(slices.Clone(f.vals))
	if f.vals[order[0]] < largestSpread*max(med, f.res) {
		return nil
	}
	out := make([]int32, 0, k)
	for _, i := range order[:k] {
		out = append(out, f.lines[i])
	}
	return out
}

func (f *fieldStat) outliers() []int32 {
	n := len(f.vals)
	if n < fieldMinValues {
		return nil
	}
	var out []int32
	rareCount := max(1, n/100)
	if f.integer {
		counts := make(map[float64]int, 8)
		for _, v := range f.vals {
			counts[v]++
			if len(counts) > categoricalMaxDistinct {
				break
			}
		}
		if len(counts) <= categoricalMaxDistinct && len(counts) > 1 {
			top := 0
			for _, c := range counts {
				top = max(top, c)
			}
			if top*2 >= n {
				for k, v := range f.vals {
					if c := counts[v]; c <= rareCount && c < top {
						out = append(out, f.lines[k])
					}
				}
				if len(out) > 0 {
					return out
				}
			}
		}
	}
	// A rare zero: an untested file's "0 | 0 | 0" among coverage rows of
	// 40 to 100, an empty file among full ones. Zero has no log, so the
	// rule below cannot see it; it counts when at most rareCount values
	// are 0 and the median is clearly above it (ten resolutions). Not for
	// durations (a 0 ms step is timer resolution and differs between runs)
	// nor for a field written zero-padded anywhere (a timestamp's ",000").
	if !f.time && !f.padded {
		zeros := 0
		for _, v := range f.vals {
			if v == 0 {
				zeros++
			}
		}
		distinct := map[float64]bool{}
		for _, v := range f.vals {
			distinct[v] = true
		}
		// Mostly distinct integers are a sequence ("case 0", "case 1" …),
		// whose 0 is its first item, not a missing measure.
		sequence := f.integer && len(distinct)*2 > n
		if zeros > 0 && zeros <= rareCount && !sequence {
			if med := median(slices.Clone(f.vals)); med >= 10*max(f.res, 1) {
				for k, v := range f.vals {
					if v == 0 {
						out = append(out, f.lines[k])
					}
				}
			}
		}
	}
	// A high outlier: a modified z-score of the log value of at least
	// outlierZ (Iglewicz and Hoaglin, "How to Detect and Handle
	// Outliers", 1993: 0.6745 (x - median) / MAD), and at least
	// outlierFactor times the median plus ten times the resolution.
	logs := make([]float64, 0, n)
	for _, v := range f.vals {
		logs = append(logs, math.Log(max(v, f.res, 1e-12)))
	}
	medLog := median(slices.Clone(logs))
	dev := make([]float64, n)
	for i, l := range logs {
		dev[i] = math.Abs(l - medLog)
	}
	mad := median(dev)
	limit := outlierFactor * (math.Exp(medLog) + 10*f.res)
	if f.time {
		limit = max(limit, minOutlierMs)
	}
	for k, v := range f.vals {
		if v <= limit {
			continue
		}
		if mad == 0 || 0.6745*(logs[k]-medLog)/mad >= outlierZ {
			out = append(out, f.lines[k])
		}
	}
	return out
}

// median returns the median of xs (the mean of the two middle values for
// an even count), sorting xs in place; xs is not empty.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// templateHash is the FNV-1a hash of a normalised line's template: its
// whitespace-separated tokens, with every digit run masked as one '0', and
// tokens that name a file, URL or qualified identifier (as isNameLike) or
// look generated (eight bytes or more of letters and digits, two digits at
// least: hex hashes, "req-7f3a9c1e") masked whole. It reads each byte once.
func templateHash(s string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			break
		}
		start := i
		th := uint64(offset) // the token's own hash, digit runs masked
		digits, letters, dot := 0, 0, -1
		name := false
		for ; i < len(s) && s[i] != ' ' && s[i] != '\t'; i++ {
			c := s[i]
			switch {
			case isDigit(c):
				digits++
				if i == start || !isDigit(s[i-1]) && !(s[i-1] == '.' && i-2 >= start && isDigit(s[i-2])) {
					th = (th ^ '0') * prime
				}
				continue
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
				letters++
			case c == '/' || c == '\\':
				name = true
			case c == ':' && i > start && s[i-1] == ':':
				name = true
			case c == '.' && i > start && isDigit(s[i-1]) && i+1 < len(s) && isDigit(s[i+1]):
				continue // a decimal point: "9.0" is one number, like "643"
			case c == '.' && dot < 0:
				dot = i - start
			}
			th = (th ^ uint64(c)) * prime
		}
		n := i - start
		// isNameLike's inner dot: not first, not last, the token neither
		// starting nor ending with one.
		if dot > 0 && dot < n-1 && s[i-1] != '.' {
			name = true
		}
		h = (h ^ ' ') * prime
		if name || n >= 8 && digits >= 2 && letters > 0 && digits+letters >= 8 {
			h *= prime // a masked token: byte 0
			continue
		}
		if f, _ := unitFamily(strings.TrimRight(s[start:i], "),;]")); digits == 0 && (f == "t" || f == "b") {
			h = (h ^ 1) * prime // "643 kB)" and "9.0 MB)" are one shape
			continue
		}
		if strings.Trim(s[start:i], "+-") == "" && n > 1 {
			h = (h ^ 3) * prime // a diffstat's "+++--" bar, as long as its count
			continue
		}
		if digits > 0 && isDigit(s[start]) {
			tok := strings.TrimRight(s[start:i], "),;]")
			k := strings.IndexFunc(tok, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') })
			if f, _ := unitFamily(tok[max(k, 0):]); k > 0 && (f == "t" || f == "b") {
				h = (h ^ 2) * prime // "4.0K" and "7.0G", "36ms" and "1.2s": one shape, a size or a time
				continue
			}
		}
		h = (h ^ th) * prime
	}
	return h
}

// scanFields calls fn for each numeric field of a shown line of template
// tmpl: a number (digits, an optional fraction) that starts a token or
// follows '=', '(', '[', '{', a quote, ',' or a key's ':' (not a clock's),
// with an optional unit of up to three letters (or a time or size unit
// after one space: "15 ms", "9.0 MB"), then the token's end. The
// field's key hashes the template, the text before the number back to the
// token's start (its "context", such as `status=`, `"dur_ms":` or "("),
// the unit's family and the field's ordinal among the line's fields of
// that context; the value is converted to the family's base unit (time to
// ms, sizes to bytes). res is the value's printing resolution in that unit
// (one unit of its last printed digit); integer reports an integer without
// a unit, time a duration.
func scanFields(s string, tmpl uint64, fn func(key uint64, v, res float64, integer, time, padded bool)) {
	var seen [8]uint64 // context hashes of this line's fields so far, for ordinals
	nseen := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || i > 0 && isDigit(s[i-1]) {
			continue
		}
		if i > 0 && !fieldOpens(s, i) {
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		dec := 0
		if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
			k := j + 1
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			dec, j = k-j-1, k
		}
		u := j
		for u < len(s) && u-j <= 3 && (s[u] >= 'a' && s[u] <= 'z' || s[u] >= 'A' && s[u] <= 'Z' || s[u] == '%') {
			u++
		}
		unit := s[j:u]
		if strings.HasPrefix(s[j:], "µs") {
			unit, u = "us", j+len("µs")
		}
		if u == j && j+1 < len(s) && s[j] == ' ' {
			// "15 ms", "9.0 MB": a known unit after one space.
			w := j + 1
			for w < len(s) && w-j <= 4 && (s[w] >= 'a' && s[w] <= 'z' || s[w] >= 'A' && s[w] <= 'Z') {
				w++
			}
			if f, _ := unitFamily(s[j+1 : w]); (f == "t" || f == "b") && (w == len(s) || fieldCloses(s[w])) {
				unit, u = s[j+1:w], w
			}
		}
		if len(unit) > 3 || u < len(s) && !fieldCloses(s[u]) {
			i = u
			continue
		}
		v, err := strconv.ParseFloat(s[i:j], 64)
		if err != nil {
			continue
		}
		family, scale := unitFamily(unit)
		// The context: back to the token's start.
		c := i
		for c > 0 && i-c < 24 && !strings.ContainsRune(" \t,{;", rune(s[c-1])) {
			c--
		}
		if unit == "" {
			// A bare number after a time key ("duration_ms: 10.35",
			// "elapsed=1.2") is a duration too.
			family, scale = timeKeyUnit(s[c:i], s[max(0, c-24):i])
		}
		v *= scale
		ch := uint64(14695981039346656037)
		for _, b := range []byte(s[c:i] + "\x00" + family) {
			ch = (ch ^ uint64(b)) * 1099511628211
		}
		ord := 0
		for _, x := range seen[:nseen] {
			if x == ch {
				ord++
			}
		}
		if nseen < len(seen) {
			seen[nseen] = ch
			nseen++
		}
		key := (tmpl^ch)*1099511628211 ^ uint64(ord)
		fn(key, v, math.Pow10(-dec)*scale, unit == "" && family == "" && dec == 0, family == "t", s[i] == '0' && j-i > 1 && isDigit(s[i+1]))
		i = u
	}
}

// fieldOpens reports whether a number at s[i] (i > 0) may start a field:
// after a blank, '=', '(', '[', '{', a quote or ',', or after a key's ':'
// (one not preceded by a digit, so clock parts are not fields).
func fieldOpens(s string, i int) bool {
	switch s[i-1] {
	case ' ', '\t', '=', '(', '[', '{', '"', '\'', ',':
		return true
	case ':':
		return i >= 2 && !isDigit(s[i-2])
	}
	return false
}

// fieldCloses reports whether a byte may follow a field's number and unit.
func fieldCloses(c byte) bool {
	switch c {
	case ' ', '\t', ')', ']', '}', ',', ';', '"', '\'':
		return true
	}
	return false
}

// timeKeyUnit reads the key before a bare number: a time key ("dur",
// "duration", "elapsed", "took", "latency", "time", with an optional unit
// suffix such as _ms or _s) makes it a duration in that unit (ms when
// none), anything else leaves it unitless. ctx is the text before the
// number in its token, before the 24 bytes before it.
func timeKeyUnit(ctx, before string) (family string, scale float64) {
	key := strings.ToLower(strings.TrimRight(ctx, `"':= `))
	if key == "" {
		key = strings.ToLower(strings.TrimRight(before, `"':= `))
		if i := strings.LastIndexAny(key, " \t,{;\""); i >= 0 {
			key = key[i+1:]
		}
	}
	for _, w := range []string{"dur", "elapsed", "took", "latency", "time"} {
		if !strings.Contains(key, w) {
			continue
		}
		switch {
		case strings.HasSuffix(key, "ns"):
			return "t", 1e-6
		case strings.HasSuffix(key, "us"):
			return "t", 1e-3
		case strings.HasSuffix(key, "_s") || strings.HasSuffix(key, "sec") || strings.HasSuffix(key, "secs") || strings.HasSuffix(key, "seconds"):
			return "t", 1000
		}
		return "t", 1
	}
	return "", 1
}

// unitFamily maps a unit to its family and the factor to the family's base
// unit: times to ms, sizes to bytes; any other unit is its own family.
func unitFamily(unit string) (family string, scale float64) {
	switch unit {
	case "ns":
		return "t", 1e-6
	case "us":
		return "t", 1e-3
	case "ms":
		return "t", 1
	case "s":
		return "t", 1000
	case "B", "b":
		return "b", 1
	case "kB", "KB", "kb":
		return "b", 1e3
	case "KiB":
		return "b", 1 << 10
	case "MB", "mb":
		return "b", 1e6
	case "MiB":
		return "b", 1 << 20
	case "GB", "gb":
		return "b", 1e9
	case "GiB":
		return "b", 1 << 30
	case "K", "Ki":
		// ls -h, du -h, df -h, free -h and Kubernetes write binary
		// multiples with one letter ("4.0K", "7.0G", "512Mi").
		return "b", 1 << 10
	case "M", "Mi":
		return "b", 1 << 20
	case "G", "Gi":
		return "b", 1 << 30
	case "T", "Ti":
		return "b", 1 << 40
	}
	return unit, 1
}
