package compress

import (
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
//   - a field outlier: in a template with fieldMinValues lines or more,
//     a numeric field (a number at the same place: "status=", "dur=", the
//     n-th bare number, a JSON key) whose value is either
//     a rare category (integers without a unit taking at most
//     categoricalMaxDistinct values, one of which covers half the lines,
//     the rare one at most 1% of them: status=503 among status=200) or a
//     high outlier (more than outlierGap times the largest value outside
//     the top 1%, and at least outlierFactor times the median plus ten
//     times the printing resolution: dur=30001ms among 20–40 ms).
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
	anomalyMinLines        = 50 // ranked lines a stream needs to have a usual shape
	frequentTemplate       = 10 // lines a template needs to count as usual
	frequentCoverPercent   = 60 // share of lines in usual templates for rare shapes to mean anything
	rareMaxPercent         = 5  // more rare lines than this share: the output has no usual shape
	fieldMinValues         = 20 // lines of a template for its fields to have a distribution
	categoricalMaxDistinct = 16 // values a categorical field may take
	outlierGap             = 3  // an outlier exceeds the largest value outside the top 1% this many times
	outlierFactor          = 10 // and the median plus ten times the resolution this many times
)

// Strengths of an anomaly (line.anom), strongest first in selection.
const (
	anomNone  = 0
	anomRare  = 1 // a rare shape
	anomField = 2 // a field outlier
)

// markAnomalies finds the rare shapes and field outliers among the ranked
// lines of one stream (see the rules above) and promotes them to
// tierAnomaly.
func markAnomalies(ls []line) {
	var idx []int32
	for i := range ls {
		if ls[i].tier == tierRank && ls[i].kind != kindBlank && !ls[i].ready {
			idx = append(idx, int32(i))
		}
	}
	if len(idx) < anomalyMinLines {
		return
	}
	tmpl := make([]uint64, len(idx))
	count := make(map[uint64]int32, 64)
	for k, i := range idx {
		h := ls[i].tmpl // templateHash(ls[i].text), computed with the line
		tmpl[k] = h
		count[h]++
	}
	covered := 0
	for _, h := range tmpl {
		if count[h] >= frequentTemplate {
			covered++
		}
	}
	if covered*100 < len(idx)*frequentCoverPercent {
		return // no usual shape: every line is as unusual as the next
	}
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
	fields := make(map[uint64]*fieldStat)
	for k, i := range idx {
		if count[tmpl[k]] < fieldMinValues {
			continue
		}
		scanFields(ls[i].show, tmpl[k], func(key uint64, v, res float64, integer bool) {
			f := fields[key]
			if f == nil {
				f = &fieldStat{integer: true}
				fields[key] = f
			}
			f.vals = append(f.vals, v)
			f.lines = append(f.lines, i)
			f.res = max(f.res, res)
			f.integer = f.integer && integer
		})
	}
	for _, f := range fields {
		for _, i := range f.outliers() {
			ls[i].anom = anomField
		}
	}
	for _, i := range idx {
		if ls[i].anom != anomNone {
			ls[i].tier = tierAnomaly
		}
	}
}

// fieldStat holds one field's values over the lines of a template.
type fieldStat struct {
	vals    []float64 // in the unit family's base unit (ms, bytes)
	lines   []int32   // the line of each value
	res     float64   // the coarsest printing resolution, in the base unit (0.01 s is 10 ms)
	integer bool      // every value an integer without a unit
}

// outliers returns the lines whose value is a rare category or a high
// outlier of the field (see markAnomalies).
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
	sorted := slices.Clone(f.vals)
	slices.Sort(sorted)
	if n <= rareCount+1 {
		return nil
	}
	q := sorted[n-1-rareCount]
	med := sorted[n/2]
	limit := max(outlierGap*q, outlierFactor*(med+10*f.res))
	for k, v := range f.vals {
		if v > limit {
			out = append(out, f.lines[k])
		}
	}
	return out
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
				if i == start || !isDigit(s[i-1]) {
					th = (th ^ '0') * prime
				}
				continue
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
				letters++
			case c == '/' || c == '\\':
				name = true
			case c == ':' && i > start && s[i-1] == ':':
				name = true
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
			h = (h ^ 0) * prime
			continue
		}
		h = (h ^ th) * prime
	}
	return h
}

// scanFields calls fn for each numeric field of a shown line of template
// tmpl: a number (digits, an optional fraction) that starts a token or
// follows '=', '(', '[', '{', a quote, ',' or a key's ':' (not a clock's),
// with an optional unit of up to three letters, then the token's end. The
// field's key hashes the template, the text before the number back to the
// token's start (its "context", such as `status=`, `"dur_ms":` or "("),
// the unit's family and the field's ordinal among the line's fields of
// that context; the value is converted to the family's base unit (time to
// ms, sizes to bytes). res is the value's printing resolution in that unit
// (one unit of its last printed digit); integer reports an integer without
// a unit.
func scanFields(s string, tmpl uint64, fn func(key uint64, v, res float64, integer bool)) {
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
		if len(unit) > 3 || u < len(s) && !fieldCloses(s[u]) {
			i = u
			continue
		}
		v, err := strconv.ParseFloat(s[i:j], 64)
		if err != nil {
			continue
		}
		family, scale := unitFamily(unit)
		v *= scale
		// The context: back to the token's start.
		c := i
		for c > 0 && i-c < 24 && !strings.ContainsRune(" \t,{;", rune(s[c-1])) {
			c--
		}
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
		fn(key, v, math.Pow10(-dec)*scale, unit == "" && dec == 0)
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
	}
	return unit, 1
}
