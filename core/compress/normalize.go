package compress

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Placeholders that replace volatile tokens. They are plain ASCII so that an
// extract stays readable and two normalised runs compare byte for byte.
const (
	phTime = "<time>"
	phDur  = "<dur>"
	phRate = "<rate>"
	phAddr = "0x<addr>"
	phPID  = "<pid>"
	phN    = "<n>"
	phPort = "<port>"
	phTmp  = "<tmp>"
	phUUID = "<uuid>"
	phID   = "<id>"
	phMem  = "<mem>"
)

// ephemeralPortMin is the lowest port treated as volatile on a loopback or
// wildcard address: 1024, the first unprivileged port. Linux's default
// ephemeral range starts at 32768 (net.ipv4.ip_local_port_range) and
// IANA's at 49152, but busy hosts and container images widen it to
// "1024 65535", and a client's port in a log line (remote=127.0.0.1:30131)
// is then any of them. Normalisation only compares lines, so a fixed
// service port such as 8080 masked too costs nothing but a grouping.
const ephemeralPortMin = 1024

// monthRE matches an English month name or its three-letter abbreviation.
const monthRE = `(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]{0,6}`

// dateZones are the time zones the date-words rule takes after a time:
// UTC and GMT, numeric offsets and common abbreviations. Other capitalised
// words there stay (log levels, host names).
const dateZones = `(?:GMT|UTC|Z|[+-]\d{2}:?\d{2}|[ECMP][SD]T|AK[SD]T|HST|AE[SD]T|NZ[SD]T|CES?T|EES?T|WET|BST|IST|JST|KST|MSK)`

// dateWordsPattern is the date-words rule's regexp (see normRules). A
// match starts at most 34 bytes before its clock's first ':' ("Wednesday,
// 30 September 2026 12:" and "Wednesday, September 30, 2026 12:" are the
// longest heads) and ends at most maxDateWordsTail bytes after its clock,
// which normDateWords relies on.
const dateWordsPattern = `\b(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]{0,6},? )?(?:\d{1,2}[ /-]` + monthRE + `[ /-]\d{2,4}[ :]|` +
	monthRE + ` {1,2}\d{1,2},?(?: \d{4})? )\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b(?: ` + dateZones + `\b)?(?: \d{4}\b)?(?: [+-]\d{2}:?\d{2}\b)?`

// dateWordsAt is dateWordsPattern anchored at the start of its input.
var dateWordsAt = lazyCompile(`^(?:` + dateWordsPattern + `)`)

// maxDateWordsHead bounds how far before its clock's first ':' a
// date-words match starts (see dateWordsPattern), with a margin.
const maxDateWordsHead = 36

// maxDateWordsTail is the longest date-words match after its time: a zone
// (" +01:00"), a year (" 2026") and an offset (" +0000"), 19 bytes.
const maxDateWordsTail = 19

// tmpNameRE is one path component under a temp root.
const tmpNameRE = `[^/\s"'` + "`" + `:,;)\]]+`

type rule struct {
	name string
	// trigger is a necessary condition of re (see scanTriggers); the
	// regexp runs only on lines that have all its bits.
	trigger trigger
	re      *lazyRE
	repl    string                  // used when fn is nil; may reference groups
	fn      func(m []string) string // whole-match replacement from submatches
	// fast, if set, does what re and repl do without a regexp, for rules
	// that fire on many lines (a test checks they agree).
	fast func(string) string
}

// normRules are applied in order; each rule documents the volatile token it
// targets. Prefix groups such as (^|[^\w:.]) stand in for look-behind, which
// RE2 lacks, and are written back by the replacement.
var normRules = []rule{
	{ // curl's progress meter row: keep the size columns, drop speeds and times.
		name: "curl-meter", trigger: trigCurl,
		re:   lazyCompile(`^(\s*\d{1,3}\s+[\d.]+[kMGTP]?\s+\d{1,3}\s+[\d.]+[kMGTP]?\s+\d{1,3}\s+[\d.]+[kMGTP]?)\s+[\d.]+[kMGTP]?\s+[\d.]+[kMGTP]?\s+[\d:-]+\s+[\d:-]+\s+[\d:-]+\s+[\d.]+[kMGTP]?\s*$`),
		repl: "${1}  <progress>",
	},
	{ // wget's dot progress (non-TTY): keep offset, dots and percentage,
		// drop the speed and time columns.
		name: "wget-dots", trigger: trigWget,
		re:   lazyCompile(`^(\s*\d+K(?: [.,]{1,10}){1,5}\s+\d+%)\s+\S+(?:\s+\S+)?\s*$`),
		repl: "${1} <progress>",
	},
	{ // RFC 3339 / ISO 8601 / Python logging asctime / Go log timestamps.
		name: "datetime", trigger: trigDate,
		re:   lazyCompile(`\b\d{4}[-/]\d{2}[-/]\d{2}[T _]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2}\b| ?UTC\b)?`),
		repl: phTime,
	},
	{ // Dates with month names, with the clock time they carry: RFC 1123
		// and RFC 850 ("Mon, 30 Nov 2026 12:34:56 GMT", HTTP Date and
		// Last-Modified headers, date -R), the common log format of web
		// servers ("30/Nov/2026:12:34:56 +0000"), asctime, date(1) and git
		// ("Mon Nov 30 12:34:56 UTC 2026", "Mon Nov 30 12:34:56 2026
		// +0000") and syslog ("Nov 30 12:34:56"). A zone is taken only from
		// dateZones, so a level word such as "INFO" after the time stays.
		name: "date-words", trigger: trigMonthClock,
		re:   lazyCompile(dateWordsPattern),
		repl: phTime,
		fast: normDateWords,
	},
	{ // US-style dates with a time: "4/4/2026 1:02:03 PM", "11/30/2026,
		// 13:02" (month/day or day/month, then a four-digit year).
		name: "us-date", trigger: trigSlashYear,
		re:   lazyCompile(`\b\d{1,2}/\d{1,2}/\d{4},? \d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?: ?[AaPp][Mm])?\b`),
		repl: phTime,
	},
	{ // Clock times: 12:25:50, 0:00:06, 12:25:50.217, 1:02:03 PM.
		name: "clock", trigger: trigClock,
		re:   lazyCompile(`(^|[^\w:.])\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?: ?[AaPp][Mm])?\b`),
		repl: "${1}" + phTime,
		fast: normClocks,
	},
	{ // UUIDs (request and run ids).
		name: "uuid", trigger: trigUUID,
		re:   lazyCompile(`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`),
		repl: phUUID,
	},
	{ // Temporary directories: the first component under a temp root when it
		// looks generated (see isGeneratedName: Go's t.TempDir and
		// os.MkdirTemp, Python's tempfile, mktemp), and pytest's numbered
		// run directory in /tmp/pytest-of-<user>/pytest-<N>.
		name: "tmpdir", trigger: trigTmp,
		re: lazyCompile(`((?:/private)?/var/folders/[^/\s]+/[^/\s]+/T|/(?:[\w.-]+/)*(?:tmp|temp|Temp|TEMP)|/dev/shm)/(` + tmpNameRE + `)(?:/(` + tmpNameRE + `))?`),
		fn: func(m []string) string {
			switch {
			case isGeneratedName(m[2]):
				return m[1] + "/" + phTmp + strings.TrimPrefix(m[0], m[1]+"/"+m[2])
			case strings.HasPrefix(m[2], "pytest-of-") && isPytestRun(m[3]):
				return m[1] + "/" + m[2] + "/" + phTmp
			}
			return m[0]
		},
	},
	{ // Data rates: 114 kB/s, 2.00MB/s, 3.4 MiB/s.
		name: "rate", trigger: trigRate,
		re:   lazyCompile(`\b\d+(?:\.\d+)?\s?[kKMGT]?i?[bB](?:ps|/s)\b`),
		repl: phRate,
	},
	{ // Spelled-out durations: 12 ms, 1.234 s, 3 seconds, jest's
		// "estimated 4 s".
		name: "duration-words", trigger: trigDurWords | trigDurUnit,
		re: lazyCompile(`(^|[^\w.])\d+(?:\.\d+)?\s(?:ms|msecs?|milliseconds?|secs?|seconds?|minutes?|mins?)\b|(^|[^\w.])\d+(?:\.\d+)? s\b`),
		fn: func(m []string) string {
			return m[1] + m[2] + phDur
		},
	},
	{ // Heap and stack addresses (5+ hex digits; short code offsets such as
		// Go's +0x1d stay).
		name: "hexaddr", trigger: trigHex,
		re:   lazyCompile(`\b0x[0-9a-fA-F]{5,}\b`),
		repl: phAddr,
	},
	{ // Process ids: "pid 31188", "[pid 30670]", "pid=12", "PID: 7".
		name: "pid", trigger: trigPID,
		re:   lazyCompile(`\b(pid|PID|Pid)([ =:#]+)\d+\b`),
		repl: "${1}${2}" + phPID,
	},
	{ // "process 1234", "Process ID: 1234" (the OOM killer, supervisors,
		// test runners). Two digits at least, so "process 1 of 4" stays.
		name: "process", trigger: trigProcess,
		re:   lazyCompile(`\b([Pp]rocess(?: [Ii][Dd])?[ =:#]+)\d{2,}\b`),
		repl: "${1}" + phPID,
		fast: normProcessIDs,
	},
	{ // syslog-style "name[1234]:".
		name: "pid-bracket", trigger: trigPIDBracket,
		re:   lazyCompile(`\b([A-Za-z][\w.-]*)\[\d{2,}\]:`),
		repl: "${1}[" + phPID + "]:",
	},
	{ // Thread ids in Rust panics: "thread 'main' (12246) panicked".
		name: "thread-id", trigger: trigThread,
		re:   lazyCompile(`(thread '[^']*') \(\d+\)`),
		repl: "${1} (" + phN + ")",
	},
	{ // Unix epoch values of a time-ish key (see isTimeKey): "ts=1732981234",
		// "\"time\": 1732981234567", "created_at: 1732981234.5". Only 10,
		// 13, 16 or 19 digits (s, ms, µs, ns) from 1,000,000,000 to
		// 3,999,999,999 s (2001 to 2096), with an optional fraction: other
		// numbers, and epochs after other keys ("size=1732981234"), stay.
		name: "epoch", trigger: trigLongNum,
		re: lazyCompile(`\b([A-Za-z_][\w.-]*)(["']?[ \t]*[:=][ \t]*["']?)[1-3]\d{9}(?:\d{3}){0,3}(?:\.\d+)?\b`),
		fn: func(m []string) string {
			if isTimeKey(m[1]) {
				return m[1] + m[2] + phTime
			}
			return m[0]
		},
		fast: normEpochs,
	},
	{ // Timing fields of structured output: "duration_ms: 38.44" (TAP/YAML),
		// "# duration_ms 632.78", "elapsed=1.2", "took 35".
		name: "timing-field", trigger: trigTiming,
		re:   lazyCompile(`(?i)\b((?:duration|elapsed|took|time)(?:_?(?:ms|ns|us|secs?|seconds))?["']?\s*[:= ]\s*)\d+(?:\.\d+)?\b`),
		repl: "${1}" + phDur,
		fast: normTimingFields,
	},
	{ // Goroutine numbers: "goroutine 65 [running]", "in goroutine 1",
		// "Goroutine 9 (running) created at:" (race reports).
		name: "goroutine", trigger: trigGoroutine,
		re:   lazyCompile(`\b([Gg])oroutine \d+\b`),
		repl: "${1}oroutine " + phN,
	},
	{ // Ephemeral ports on loopback or wildcard addresses.
		name: "port", trigger: trigPort,
		re: lazyCompile(`\b(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]|::1?):(\d{4,5})\b`),
		fn: func(m []string) string {
			if p, err := strconv.Atoi(m[2]); err == nil && p >= ephemeralPortMin {
				return m[1] + ":" + phPort
			}
			return m[0]
		},
	},
}

// durationRe is the reference definition of a duration token (one to three
// number+unit components such as 813ms, 0.145s, 1m30s, 1.2µs, not preceded
// by a word character or '.', ending at a word boundary). normDurations
// implements it without backtracking; a test checks they agree.
var durationRe = lazyCompile(`(^|[^\w.])(?:\d+(?:\.\d+)?(?:ns|µs|us|ms|s|m|h)){1,3}\b`)

// normDurations replaces every duration token (see durationRe) with <dur>.
func normDurations(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || i > 0 && (isWordByte(s[i-1]) || s[i-1] == '.') {
			continue
		}
		j, comps := i, 0
		for comps < 3 {
			k := j
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			if k == j {
				break
			}
			if k+1 < len(s) && s[k] == '.' && isDigit(s[k+1]) {
				k++
				for k < len(s) && isDigit(s[k]) {
					k++
				}
			}
			u := unitLen(s[k:])
			if u == 0 {
				break
			}
			j = k + u
			comps++
			if j >= len(s) || !isDigit(s[j]) {
				break
			}
		}
		if comps == 0 || j < len(s) && isWordByte(s[j]) {
			// Not a duration: skip the rest of this number.
			for i+1 < len(s) && (isDigit(s[i+1]) || s[i+1] == '.') {
				i++
			}
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(phDur)
		last = j
		i = j - 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// normDateWords is the date-words rule with its regexp run only where a
// match can start: at word starts at most maxDateWordsHead bytes before a
// clock's first ':' that has a month abbreviation before it (monthBefore),
// anchored there. Positions are tried left to right and matches replaced
// without overlap, as ReplaceAllString does, so the result is the
// regexp's; a line with a clock costs a few anchored attempts instead of a
// search from every byte.
func normDateWords(s string) string {
	var b strings.Builder
	last := 0
	for i := 1; i+4 < len(s); i++ {
		if s[i] != ':' || !isDigit(s[i-1]) || !isDigit(s[i+1]) || !isDigit(s[i+2]) || s[i+3] != ':' || !monthBefore(s, i) {
			continue
		}
		// The match ends within maxDateWordsTail bytes after the clock's
		// digits (and those of a CLF year before it): cut the input there,
		// one byte on, so every \b the regexp checks sees its true
		// neighbours.
		j := i
		for j < len(s) && (isDigit(s[j]) || s[j] == ':' || s[j] == '.' || s[j] == ',') {
			j++
		}
		cut := min(len(s), j+maxDateWordsTail+1)
		for p := max(last, i-maxDateWordsHead); p < i; p++ {
			if p > 0 && isWordByte(s[p-1]) || !dateWordsStart(s[p:]) {
				continue
			}
			if loc := dateWordsAt.FindStringIndex(s[p:cut]); loc != nil {
				b.WriteString(s[last:p])
				b.WriteString(phTime)
				last = p + loc[1]
				i = last - 1
				break
			}
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// normProcessIDs is the process rule without its regexp: after each
// "process" or "Process" at a word start, an optional " id" (any case),
// one or more of ' ', '=', ':', '#', then two or more digits ending at a
// word boundary: the digits become <pid>.
func normProcessIDs(s string) string {
	var b strings.Builder
	last := 0
	for k := 1; k < len(s); {
		r := strings.Index(s[k:], "rocess")
		if r < 0 {
			break
		}
		p := k + r - 1 // the 'P' or 'p'
		k = p + len("process")
		if p < last || s[p] != 'P' && s[p] != 'p' || p > 0 && isWordByte(s[p-1]) {
			continue
		}
		num, end := -1, -1
		for _, j := range []int{k + 3, k} { // " id" taken first, as the regexp does
			if j == k+3 && (j > len(s) || s[k] != ' ' || s[k+1] != 'i' && s[k+1] != 'I' || s[k+2] != 'd' && s[k+2] != 'D') {
				continue
			}
			d := j
			for d < len(s) && strings.IndexByte(" =:#", s[d]) >= 0 {
				d++
			}
			e := d
			for e < len(s) && isDigit(s[e]) {
				e++
			}
			if d > j && e-d >= 2 && (e == len(s) || !isWordByte(s[e])) {
				num, end = d, e
				break
			}
		}
		if num < 0 {
			continue
		}
		b.WriteString(s[last:num])
		b.WriteString(phPID)
		last, k = end, end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// weekdays are the three-letter weekday abbreviations dateWordsPattern
// starts with.
var weekdays = [...]string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}

// dateWordsStart reports whether a date-words match can start at s[0]: a
// weekday or month abbreviation, or one or two digits then ' ', '/' or
// '-'. It is a necessary condition of dateWordsAt that costs no regexp.
func dateWordsStart(s string) bool {
	switch {
	case s == "":
		return false
	case isDigit(s[0]):
		i := 1
		if i < len(s) && isDigit(s[i]) {
			i++
		}
		return i < len(s) && (s[i] == ' ' || s[i] == '/' || s[i] == '-')
	case len(s) < 3:
		return false
	}
	for _, w := range weekdays {
		if s[:3] == w {
			return true
		}
	}
	for _, m := range months {
		if s[:3] == m {
			return true
		}
	}
	return false
}

// normEpochs is the epoch rule without its regexp: each maximal run of 10,
// 13, 16 or 19 digits starting with 1, 2 or 3 (with a .fraction when a
// word boundary follows it), not followed by a word byte, preceded by a
// separator (an optional quote, blanks, ':' or '=', blanks, an optional
// quote) and a key, is replaced with <time> when isTimeKey(key). The key is
// the run of [\w.-] before the separator from its first position at or
// after the previous match that is a word start holding [A-Za-z_], as the
// regexp's leftmost match picks it.
func normEpochs(s string) string {
	var b strings.Builder
	last := 0
	for a := 0; a < len(s); a++ {
		if !isDigit(s[a]) || a > 0 && isDigit(s[a-1]) {
			continue
		}
		e := a
		for e < len(s) && isDigit(s[e]) {
			e++
		}
		n := e - a
		if s[a] < '1' || s[a] > '3' || n != 10 && n != 13 && n != 16 && n != 19 {
			a = e - 1
			continue
		}
		end := e // the match's end: after the fraction if a boundary follows it
		if e+1 < len(s) && s[e] == '.' && isDigit(s[e+1]) {
			f := e + 2
			for f < len(s) && isDigit(s[f]) {
				f++
			}
			if f == len(s) || !isWordByte(s[f]) {
				end = f
			}
		}
		if end == e && e < len(s) && isWordByte(s[e]) {
			a = e - 1
			continue
		}
		// The separator, backwards: ["']? [ \t]* [:=] [ \t]* ["']?
		k := a
		if k > last && (s[k-1] == '"' || s[k-1] == '\'') {
			k--
		}
		for k > last && (s[k-1] == ' ' || s[k-1] == '\t') {
			k--
		}
		if k <= last || s[k-1] != ':' && s[k-1] != '=' {
			a = e - 1
			continue
		}
		k--
		for k > last && (s[k-1] == ' ' || s[k-1] == '\t') {
			k--
		}
		if k > last && (s[k-1] == '"' || s[k-1] == '\'') {
			k--
		}
		keyEnd := k
		for k > last && (isWordByte(s[k-1]) || s[k-1] == '.' || s[k-1] == '-') {
			k--
		}
		start := -1
		for p := k; p < keyEnd; p++ {
			if (p == 0 || !isWordByte(s[p-1])) && (s[p] == '_' || s[p] >= 'A' && s[p] <= 'Z' || s[p] >= 'a' && s[p] <= 'z') {
				start = p
				break
			}
		}
		if start < 0 || !isTimeKey(s[start:keyEnd]) {
			a = end - 1
			continue
		}
		b.WriteString(s[last:a])
		b.WriteString(phTime)
		last = end
		a = end - 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// normClocks is the clock rule without its regexp: it replaces each clock
// time h:mm:ss or hh:mm:ss (with an optional .fraction or ,fraction),
// standing at the start of s or after a rune other than a word byte, ':'
// or '.', and ending at a word boundary, with <time>. Matches are found
// left to right as the regexp would (leftmost first, not overlapping).
func normClocks(s string) string {
	var b strings.Builder
	last := 0
	for p := 0; p < len(s); {
		if p == 0 {
			if e := clockAt(s, 0); e > 0 {
				b.WriteString(phTime)
				last, p = e, e
				continue
			}
		}
		r, w := utf8.DecodeRuneInString(s[p:])
		if r >= utf8.RuneSelf || !isWordByte(byte(r)) && r != ':' && r != '.' {
			if e := clockAt(s, p+w); e > 0 {
				b.WriteString(s[last : p+w])
				b.WriteString(phTime)
				last, p = e, e
				continue
			}
		}
		p += w
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// clockAt returns the end of the clock time
// \d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?: ?[AaPp][Mm])?\b starting at s[q], or -1.
// It tries the regexp's alternatives in its order: the fraction, then an
// AM/PM marker, each first taken and then left out.
func clockAt(s string, q int) int {
	h := 0 // hour digits
	switch {
	case digitsAt(s, q, 2) && q+2 < len(s) && s[q+2] == ':':
		h = 2
	case digitsAt(s, q, 1) && q+1 < len(s) && s[q+1] == ':':
		h = 1
	default:
		return -1
	}
	i := q + h + 1
	if !digitsAt(s, i, 2) || i+2 >= len(s) || s[i+2] != ':' || !digitsAt(s, i+3, 2) {
		return -1
	}
	e := i + 5
	if e+1 < len(s) && (s[e] == '.' || s[e] == ',') && isDigit(s[e+1]) {
		f := e + 2
		for f < len(s) && isDigit(s[f]) {
			f++
		}
		if m := meridiemEnd(s, f); m > 0 {
			return m
		}
		if f == len(s) || !isWordByte(s[f]) {
			return f
		}
		return e // without the fraction: '.' or ',' after the seconds is a boundary
	}
	if m := meridiemEnd(s, e); m > 0 {
		return m
	}
	if e == len(s) || !isWordByte(s[e]) {
		return e
	}
	return -1
}

// meridiemEnd matches (?: ?[AaPp][Mm])\b at s[e]: it returns the end of
// the marker, or -1.
func meridiemEnd(s string, e int) int {
	for _, k := range []int{e + 1, e} { // with the space first, as ' ?' is greedy
		if k == e+1 && (e >= len(s) || s[e] != ' ') {
			continue
		}
		if k+1 < len(s) && strings.IndexByte("AaPp", s[k]) >= 0 && (s[k+1] == 'M' || s[k+1] == 'm') &&
			(k+2 == len(s) || !isWordByte(s[k+2])) {
			return k + 2
		}
	}
	return -1
}

// normTimingFields is the timing-field rule without its regexp: a keyword
// (duration, elapsed, took, time; any case) at a word boundary, an optional
// unit suffix (_ms, secs …), an optional quote, a ':', '=' or space among
// blanks, then a number ending at a word boundary: the number becomes
// <dur>. Alternatives are tried in the regexp's order, so the matches are
// the regexp's.
func normTimingFields(s string) string {
	var b strings.Builder
	last := 0
	for p := 0; p < len(s); p++ {
		if p > 0 && isWordByte(s[p-1]) {
			continue // no word boundary before a keyword here
		}
		if num, end := timingFieldAt(s, p); end > 0 {
			b.WriteString(s[last:num])
			b.WriteString(phDur)
			last, p = end, end-1
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Keywords and unit suffixes of the timing-field rule, in the regexp's
// order of alternatives ("secs?" tries "secs" before "sec").
var (
	timingKeywords = []string{"duration", "elapsed", "took", "time"}
	timingSuffixes = []string{"ms", "ns", "us", "secs", "sec", "seconds"}
)

// timingFieldAt matches the timing-field rule at s[p] (a word boundary):
// it returns where the number starts and where the match ends, or -1, -1.
func timingFieldAt(s string, p int) (num, end int) {
	k := -1
	for _, kw := range timingKeywords {
		if k = foldPrefix(s, p, kw); k >= 0 {
			break
		}
	}
	if k < 0 {
		return -1, -1
	}
	// The optional suffix group is greedy: each way of taking it first,
	// then leaving it out.
	u := k
	if u < len(s) && s[u] == '_' {
		u++
	}
	for _, suf := range timingSuffixes {
		if j := foldPrefix(s, u, suf); j >= 0 {
			if num, end := timingValueAt(s, j); end > 0 {
				return num, end
			}
		}
	}
	return timingValueAt(s, k)
}

// timingValueAt matches ["']?\s*[:= ]\s*\d+(?:\.\d+)?\b at s[j].
func timingValueAt(s string, j int) (num, end int) {
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		j++ // without the quote, [:= ] would have to match it
	}
	w := j
	for w < len(s) && isSpaceRE(s[w]) {
		w++
	}
	if w < len(s) && (s[w] == ':' || s[w] == '=') {
		d := w + 1
		for d < len(s) && isSpaceRE(s[d]) {
			d++
		}
		if e := numberEnd(s, d); e > 0 {
			return d, e
		}
		return -1, -1
	}
	// [:= ] is then a space among the blanks before the number.
	if strings.IndexByte(s[j:w], ' ') >= 0 {
		if e := numberEnd(s, w); e > 0 {
			return w, e
		}
	}
	return -1, -1
}

// numberEnd returns the end of \d+(?:\.\d+)?\b at s[d], or -1.
func numberEnd(s string, d int) int {
	if d >= len(s) || !isDigit(s[d]) {
		return -1
	}
	e := d
	for e < len(s) && isDigit(s[e]) {
		e++
	}
	if e+1 < len(s) && s[e] == '.' && isDigit(s[e+1]) {
		f := e + 2
		for f < len(s) && isDigit(s[f]) {
			f++
		}
		if f == len(s) || !isWordByte(s[f]) {
			return f
		}
		return e // without the fraction: '.' is a boundary
	}
	if e == len(s) || !isWordByte(s[e]) {
		return e
	}
	return -1
}

// isSpaceRE is RE2's \s: tab, newline, form feed, carriage return, space.
func isSpaceRE(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// foldPrefix matches the lowercase ASCII word w at s[i] as (?i) does: any
// case, and also 'ſ' for s and the Kelvin sign for k (their Unicode simple
// case folds). It returns the index after the match, or -1.
func foldPrefix(s string, i int, w string) int {
	for k := 0; k < len(w); k++ {
		c := w[k]
		switch {
		case i < len(s) && (s[i] == c || s[i] == c-'a'+'A'):
			i++
		case c == 's' && strings.HasPrefix(s[i:], "\u017f"):
			i += len("\u017f")
		case c == 'k' && strings.HasPrefix(s[i:], "\u212a"):
			i += len("\u212a")
		default:
			return -1
		}
	}
	return i
}

// unitLen is the byte length of the duration unit starting s, or 0.
func unitLen(s string) int {
	switch {
	case strings.HasPrefix(s, "ns"), strings.HasPrefix(s, "us"), strings.HasPrefix(s, "ms"):
		return 2
	case strings.HasPrefix(s, "µs"):
		return len("µs")
	case s != "" && (s[0] == 's' || s[0] == 'm' || s[0] == 'h'):
		return 1
	}
	return 0
}

// isWordByte is RE2's ASCII \w.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_'
}

// Normalize replaces the volatile tokens of one cleaned line with fixed
// placeholders, so two runs of the same command that differ only in them
// give the same text: timestamps (ISO 8601, RFC 1123, the common log format,
// asctime and date(1), syslog, US-style m/d/yyyy with a time), clock times
// (with AM/PM) and Unix epoch values after a time-ish key (<time>),
// durations (<dur>), data rates (<rate>), heap addresses (0x<addr>),
// process ids (<pid>), goroutine numbers (goroutine <n>), ephemeral
// loopback ports (<port>), generated temporary directory names (<tmp>),
// UUIDs (<uuid>) and the speed/time columns of curl's and wget's progress
// output (<progress>). Each rule in normRules documents its token. It
// never removes a line, only tokens in it, and it is idempotent on its own
// output.
//
// A git commit's date header ("Date:   Mon Nov 30 12:34:56 2026 +0000",
// git log's and git show's "AuthorDate: " and "CommitDate: ") is left
// whole: it is the commit's, the same in every run, and the reader may
// need it.
func Normalize(line string) string {
	if isCommitDate(line) {
		return line
	}
	if i := strings.IndexByte(line, '<'); i > 0 && isDigit(line[i-1]) {
		line = normElapsedRemaining(line)
	}
	return squeezePadding(normIDsAndSizes(reporterTimings(normalizeTokens(line))))
}

// Rules of normIDsAndSizes, each behind a cheap test of the line.
var (
	// A generated hex id after an id key: "request_id=8203ef42",
	// "traceId": "4bf92f3577b34da6", "span-id: 00f067aa0ba902b7" (eight hex
	// digits or more, with a letter and a digit). Decimal ids (job=2987)
	// stay: they name things.
	hexIDRe = lazyCompile(`(?i)\b([a-z_.-]*id)(["']?\s*[=:]\s*["']?)([0-9a-f]{8,})\b`)
	// A generated id after a request word: "req 5f051908-07f",
	// "trace=4bf92f35", "txn#a1b2c3d4" (hex groups of six digits or more).
	reqIDRe = lazyCompile(`(?i)\b(req|request|trace|span|txn|correlation)([ =:#]+)([0-9a-f]{6,}(?:-[0-9a-f]{2,})*)\b`)
	// Memory figures: "Memory used: 187752K", "max RSS 2.1 GB", "heap=512MiB".
	memRe = lazyCompile(`(?i)\b(memory(?: used| usage)?|max ?rss|rss|heap(?: size| used)?)(["']?\s*[=:]?\s*)\d+(?:\.\d+)?\s?[kmg]i?b?\b`)
	// A timestamp written with '_' for ':' (file names: npm's log
	// "2026-12-02T02_00_53_625Z-debug-0.log").
	fileTimeRe = lazyCompile(`\b\d{4}-\d{2}-\d{2}T\d{2}_\d{2}_\d{2}(?:_\d+)?Z?`)
)

// normIDsAndSizes replaces generated hex ids after an id key with <id>,
// memory figures with <mem> and '_'-separated timestamps with <time>.
func normIDsAndSizes(line string) string {
	if !strings.ContainsAny(line, "0123456789") {
		return line
	}
	if keyBeforeHex(line, []string{"id", "Id", "ID", "iD"}, "=:", 8) {
		line = replaceFunc(hexIDRe, line, hexID)
	}
	if keyBeforeHex(line, []string{"req", "Req", "REQ", "trace", "Trace", "TRACE", "span", "Span", "SPAN", "txn", "Txn", "TXN", "orrelation", "ORRELATION"}, " =:#", 6) {
		line = replaceFunc(reqIDRe, line, hexID)
	}
	if strings.Contains(line, "emory") || strings.Contains(line, "MEMORY") || strings.Contains(line, "RSS") || strings.Contains(line, "rss") || strings.Contains(line, "eap") {
		line = replaceFunc(memRe, line, func(m []string) string { return m[1] + m[2] + phMem })
	}
	if strings.IndexByte(line, '_') >= 0 && strings.IndexByte(line, 'T') >= 0 {
		line = fileTimeRe.ReplaceAllString(line, phTime)
	}
	return line
}

// keyBeforeHex is the cheap test behind the id rules: one of keys, then
// (past a quote and blanks) one of seps and (past a quote and blanks) at
// least n hex digits.
func keyBeforeHex(line string, keys []string, seps string, n int) bool {
	for _, k := range keys {
		for from := 0; ; {
			i := strings.Index(line[from:], k)
			if i < 0 {
				break
			}
			j := from + i + len(k)
			from = j
			for j < len(line) && (line[j] == '"' || line[j] == '\'' || line[j] == ' ') {
				j++
			}
			if j == len(line) || strings.IndexByte(seps, line[j]) < 0 {
				if !strings.Contains(seps, " ") || j == from {
					continue
				}
			} else {
				j++
			}
			for j < len(line) && (line[j] == '"' || line[j] == '\'' || line[j] == ' ' || line[j] == '=' || line[j] == ':' || line[j] == '#') {
				j++
			}
			h := j
			for h < len(line) && (isDigit(line[h]) || line[h] >= 'a' && line[h] <= 'f' || line[h] >= 'A' && line[h] <= 'F') {
				h++
			}
			if h-j >= n {
				return true
			}
		}
	}
	return false
}

// hexID replaces the id of a hexIDRe or reqIDRe match (groups: key,
// separator, id) with <id> when it holds both a digit and a letter, so that
// a word such as "deadbeef" or a decimal job_id stays. After a key naming a
// request, trace or span, whose values are generated, one kind of digit is
// enough, and an all-letter value of 8 hex digits or more after '=' or ':'
// is one too.
func hexID(m []string) string {
	key := strings.ToLower(m[1])
	requestKey := strings.Contains(key, "req") || strings.Contains(key, "trace") || strings.Contains(key, "span") ||
		strings.Contains(key, "txn") || strings.Contains(key, "correlation")
	digit, letter := strings.ContainsAny(m[3], "0123456789"), strings.ContainsAny(m[3], "abcdefABCDEF")
	switch {
	case requestKey && (digit || len(m[3]) >= 8 && strings.ContainsAny(m[2], "=:")):
		// A request, trace or span key holds a generated id, even when its
		// hex digits happen to be all letters ("request_id=dfedaada", as
		// about one random 8-digit id in 2,500 is) or all decimal. A bare
		// "req deadbeef" is prose.
	case !digit || !letter:
		return m[0]
	}
	return m[1] + m[2] + phID
}

// squeezePadding turns the column padding before a placeholder into one
// space ("Program time:       <dur>"): aligned columns shift when a value
// gets wider, and two runs should still compare equal. Leading indentation
// stays.
func squeezePadding(line string) string {
	if !strings.Contains(line, "  <") {
		return line
	}
	lead := len(line) - len(strings.TrimLeft(line, " \t"))
	var b strings.Builder
	b.WriteString(line[:lead])
	rest := line[lead:]
	for {
		i := strings.Index(rest, "  <")
		if i < 0 {
			break
		}
		j := i
		for j > 0 && rest[j-1] == ' ' {
			j--
		}
		b.WriteString(rest[:j])
		b.WriteByte(' ')
		rest = rest[i+2:]
	}
	b.WriteString(rest)
	return b.String()
}

// elapsedRemainingRe matches the "[elapsed<remaining, rate]" part of a
// tqdm-style progress bar: "[00:21<00:26,  2.10it/s]", "[1:02:03<?, ?it/s]",
// "[00:47<00:00, 3.4MB/s]", "[00:01<00:00, 1.52s/it]".
var elapsedRemainingRe = lazyCompile(`\[(?:\d+:)?\d{1,2}:\d{2}<(?:(?:\d+:)?\d{1,2}:\d{2}|\?)(,\s*(?:\d+(?:\.\d+)?|\?)\s?(?:[A-Za-z]*/s|s/[A-Za-z]+))?`)

// normElapsedRemaining replaces a progress bar's elapsed and remaining
// times with <dur> and its rate with <rate> (see elapsedRemainingRe): the
// two runs of one command differ in them.
func normElapsedRemaining(line string) string {
	return replaceFunc(elapsedRemainingRe, line, func(m []string) string {
		if m[1] == "" {
			return "[" + phDur + "<" + phDur
		}
		return "[" + phDur + "<" + phDur + ", " + phRate
	})
}

// isCommitDate reports whether line is a git commit date header: "Date:"
// and three spaces (git's medium format pads it to the width of
// "Author: "), or "AuthorDate: " or "CommitDate: " (fuller format).
func isCommitDate(line string) bool {
	return strings.HasPrefix(line, "Date:   ") || strings.HasPrefix(line, "AuthorDate: ") || strings.HasPrefix(line, "CommitDate: ")
}

// reporterTimings drops timings that test reporters print only sometimes,
// so their presence does not differ between runs: JavaScript reporters
// (jest, mocha, node:test spec) add "(12 ms)" to a result line only for
// slow tests, and jest's "Time:" line adds ", estimated 3 s" only when it
// has a previous run to compare with.
func reporterTimings(line string) string {
	if strings.HasSuffix(line, " ("+phDur+")") {
		t := strings.TrimLeft(line, " \t")
		for _, mark := range []string{"✓", "✔", "√", "✕", "✗", "✖", "×"} {
			if strings.HasPrefix(t, mark) {
				return strings.TrimSuffix(line, " ("+phDur+")")
			}
		}
	}
	if strings.HasPrefix(strings.TrimLeft(line, " "), "Time:") {
		if i := strings.Index(line, ", estimated "); i >= 0 {
			return line[:i]
		}
	}
	return line
}

// normalizeTokens applies the normalisation rules to one line. The
// triggers of all rules come from one scan of the line (scanTriggers),
// repeated only after a rule has changed the line, so each rule sees the
// triggers of the text it runs on.
func normalizeTokens(line string) string {
	trig := scanTriggers(line)
	// Every volatile token but a temp dir name holds a digit.
	digits := trig&trigDigit != 0
	if digits && trig&trigDigitUnit != 0 {
		if n := normDurations(line); n != line {
			line, trig = n, scanTriggers(n)
		}
	}
	for i := range normRules {
		r := &normRules[i]
		if !digits && r.trigger != trigTmp || trig&r.trigger != r.trigger {
			continue
		}
		var n string
		switch {
		case r.fast != nil:
			n = r.fast(line)
		case r.fn != nil:
			n = replaceFunc(r.re, line, r.fn)
		default:
			n = r.re.ReplaceAllString(line, r.repl)
		}
		if n != line {
			line, trig = n, scanTriggers(n)
		}
	}
	return line
}

// replaceFunc is regexp.ReplaceAllStringFunc with access to submatches.
func replaceFunc(re *lazyRE, s string, fn func([]string) string) string {
	idx := re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, loc := range idx {
		m := make([]string, len(loc)/2)
		for g := range m {
			if loc[2*g] >= 0 {
				m[g] = s[loc[2*g]:loc[2*g+1]]
			}
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(fn(m))
		last = loc[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// isGeneratedName reports whether a temp-directory entry name looks
// machine-generated: it holds a run of five or more digits (Go's
// os.MkdirTemp and t.TempDir, go-build123…), it is "tmp" and a random part
// (isTmpPrefixed: Python's tempfile, mktemp's default tmp.XXXXXXXXXX), it
// ends in a mixed-case mktemp suffix (".aB3dE6"), or it ends in an
// 8-character [a-z0-9_] suffix after "tmp" or a separator (Python's
// tempfile.mkdtemp with a prefix).
func isGeneratedName(name string) bool {
	if isTmpPrefixed(name) || isMktempSuffix(name) {
		return true
	}
	run := 0
	for i := 0; i < len(name); i++ {
		if name[i] >= '0' && name[i] <= '9' {
			run++
			if run >= 5 {
				return true
			}
		} else {
			run = 0
		}
	}
	if len(name) < 9 {
		return false
	}
	tail := name[len(name)-8:]
	for i := 0; i < len(tail); i++ {
		c := tail[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	head := name[:len(name)-8]
	return strings.HasSuffix(head, "tmp") || strings.HasSuffix(head, "-") || strings.HasSuffix(head, "_") || strings.HasSuffix(head, ".")
}

// isTmpPrefixed reports whether name is "tmp", an optional '.', '_' or '-',
// a random part of [A-Za-z0-9_] and an optional extension of 1 to 5
// letters or digits: Python's tempfile names ("tmp" and 8 characters:
// tmpk2j3x9_q, tmpab12cd34.py) and mktemp's default (tmp.aB3dE6fGh1). The
// random part needs 8 characters, or 4 with a digit, so "tmpfiles" and
// "tmp_output" stay.
func isTmpPrefixed(name string) bool {
	rest, ok := strings.CutPrefix(name, "tmp")
	if !ok {
		return false
	}
	if rest != "" && (rest[0] == '.' || rest[0] == '_' || rest[0] == '-') {
		rest = rest[1:]
	}
	n, digit := 0, false
	for n < len(rest) && (isWordByte(rest[n])) {
		digit = digit || isDigit(rest[n])
		n++
	}
	if ext := rest[n:]; ext != "" {
		if ext[0] != '.' || len(ext) < 2 || len(ext) > 6 || strings.IndexFunc(ext[1:], func(r rune) bool { return r > 127 || !isWordByte(byte(r)) }) >= 0 {
			return false
		}
	}
	return n >= 8 || n >= 4 && digit
}

// isMktempSuffix reports whether name ends in '.' and six or more random
// [A-Za-z0-9] characters as mktemp(1) makes them from a template such as
// build.XXXXXX: mixed case (an upper-case letter and a lower-case letter
// or digit), which file extensions are not.
func isMktempSuffix(name string) bool {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || len(name)-i-1 < 6 {
		return false
	}
	upper, other := false, false
	for _, c := range []byte(name[i+1:]) {
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z' || isDigit(c):
			other = true
		default:
			return false
		}
	}
	return upper && other
}

// isPytestRun reports whether name is pytest's numbered run directory
// under its base temp: "pytest-" and digits.
func isPytestRun(name string) bool {
	n, ok := strings.CutPrefix(name, "pytest-")
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// timeKeys are the last words of keys that hold a time (see isTimeKey):
// JWT's iat, exp and nbf, file times, created/updated fields.
var timeKeys = map[string]bool{
	"time": true, "timestamp": true, "ts": true, "at": true, "date": true, "datetime": true, "epoch": true,
	"stamp": true, "tstamp": true, "when": true, "mtime": true, "ctime": true, "atime": true, "iat": true,
	"exp": true, "nbf": true, "expires": true, "expiry": true, "since": true, "until": true, "created": true,
	"updated": true, "modified": true, "started": true, "finished": true, "ended": true, "start": true,
	"end": true, "deadline": true,
}

// isTimeKey reports whether a key names a time: its last word (after the
// last '_', '.' or '-', or the last camelCase hump), in lower case, is one
// of timeKeys: ts, time, created_at, startTime, @timestamp, exp.
func isTimeKey(key string) bool {
	w := key
	for i := len(key) - 1; i >= 0; i-- {
		c := key[i]
		if c == '_' || c == '.' || c == '-' {
			w = key[i+1:]
			break
		}
		if c >= 'A' && c <= 'Z' && i > 0 && key[i-1] >= 'a' && key[i-1] <= 'z' {
			w = key[i:]
			break
		}
	}
	return timeKeys[strings.ToLower(w)]
}

func itoa(n int) string { return strconv.Itoa(n) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// trigger is a set of cheap necessary conditions of the normalisation
// rules' regexps, found by scanTriggers.
type trigger uint32

const (
	trigCurl       trigger = 1 << iota // the line starts with a digit (after blanks) and holds ':'
	trigWget                           // "K ."
	trigDate                           // the shape dddd-dd-dd dd:dd ('-' or '/', 'T', ' ' or '_')
	trigClock                          // digit ':' digit digit ':' and one more byte
	trigUUID                           // eight hex digits, then '-'
	trigTmp                            // a '/' after "tmp", "temp", "Temp", "TEMP" or "/T", or "/dev/shm/"
	trigRate                           // "B/s", "b/s", "bps" or "Bps"
	trigDurWords                       // a digit, a space, then 'm' or 's'
	trigDurUnit                        // a digit, a blank, then "ms", "mil", "min", "sec" or a lone 's'
	trigHex                            // "0x" and five hex digits
	trigPID                            // "pid", "PID" or "Pid"
	trigPIDBracket                     // "]:"
	trigThread                         // "thread '"
	trigTiming                         // "uration", "lapsed", "took", "time" or "Time"
	trigGoroutine                      // "oroutine "
	trigPort                           // four or five digits after "localhost:", "127.0.0.1:", "0.0.0.0:", "]:", "::" or "::1:"
	trigDigit                          // any digit
	trigDigitUnit                      // a digit, then 'n', 'u', 'm', 's', 'h' or the first byte of 'µ'
	trigMonthClock                     // a clock's first ':' with a month abbreviation in the 24 bytes before it
	trigSlashYear                      // a digit, '/', four digits, then ' ' or ','
	trigProcess                        // "process" or "Process"
	trigLongNum                        // a run of ten or more digits
)

// Byte classes of scanTriggers.
const (
	clsPlain = iota // no trigger starts or ends here
	clsDigit        // '0'–'9'
	clsMark         // a byte a trigger starts or ends with
)

// triggerClass classifies bytes for scanTriggers.
var triggerClass = func() (t [256]uint8) {
	for c := '0'; c <= '9'; c++ {
		t[c] = clsDigit
	}
	for _, c := range ":/-KpPtTulo" {
		t[c] = clsMark
	}
	return t
}()

// scanTriggers finds every trigger of s in one pass without backtracking.
// It keeps normalisation of a 1 MB output to a few milliseconds: most
// bytes are plain (one table look-up), most lines have no trigger, and the
// regexps run only behind theirs.
func scanTriggers(s string) trigger {
	var t trigger
	colon := false
	runStart := 0 // where the current run of digits starts
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch triggerClass[c] {
		case clsPlain:
			continue
		case clsDigit:
			t |= trigDigit
			if i == 0 || !isDigit(s[i-1]) {
				runStart = i
			} else if i-runStart == 9 {
				t |= trigLongNum
			}
			if i+1 < len(s) {
				switch s[i+1] {
				case 'n', 'u', 'm', 's', 'h', 0xc2:
					t |= trigDigitUnit
				case ' ', '\t', '\f', '\r', '\n':
					if s[i+1] == ' ' && i+2 < len(s) && (s[i+2] == 'm' || s[i+2] == 's') {
						t |= trigDurWords
					}
					if u := s[i+2:]; strings.HasPrefix(u, "ms") || strings.HasPrefix(u, "mil") || strings.HasPrefix(u, "min") ||
						strings.HasPrefix(u, "sec") || u != "" && u[0] == 's' && (len(u) == 1 || !isWordByte(u[1])) {
						t |= trigDurUnit
					}
				case 'x':
					if c == '0' && hexAt(s, i+2, 5) {
						t |= trigHex
					}
				}
			}
			continue
		}
		if c == '-' || c == '/' {
			if isDateAt(s, i) {
				t |= trigDate
			}
			if c == '-' && hexAt(s, i-8, 8) {
				t |= trigUUID
			}
		}
		var next byte
		if i+1 < len(s) {
			next = s[i+1]
		}
		switch c {
		case ':':
			colon = true
			if i >= 1 && i+4 < len(s) && isDigit(s[i-1]) && isDigit(next) && isDigit(s[i+2]) && s[i+3] == ':' {
				t |= trigClock
				if t&trigMonthClock == 0 && monthBefore(s, i) {
					t |= trigMonthClock
				}
			}
			if i > 0 && s[i-1] == ']' {
				t |= trigPIDBracket
			}
			if digitsAt(s, i+1, 4) {
				if head := s[:i]; strings.HasSuffix(head, "localhost") || strings.HasSuffix(head, "127.0.0.1") || strings.HasSuffix(head, "0.0.0.0") ||
					strings.HasSuffix(head, "]") || strings.HasSuffix(head, "::") || strings.HasSuffix(head, "::1") {
					t |= trigPort
				}
			}
		case '/':
			if i >= 2 {
				if head := s[:i]; strings.HasSuffix(head, "tmp") || strings.HasSuffix(head, "temp") || strings.HasSuffix(head, "Temp") ||
					strings.HasSuffix(head, "TEMP") || strings.HasSuffix(head, "/T") {
					t |= trigTmp
				}
			}
			if next == 'd' && strings.HasPrefix(s[i:], "/dev/shm/") {
				t |= trigTmp
			}
			if next == 's' && i > 0 && (s[i-1] == 'B' || s[i-1] == 'b') {
				t |= trigRate
			}
			if i > 0 && isDigit(s[i-1]) && digitsAt(s, i+1, 4) && i+5 < len(s) && (s[i+5] == ' ' || s[i+5] == ',') {
				t |= trigSlashYear
			}
		case 'K':
			if next == ' ' && strings.HasPrefix(s[i+1:], " .") {
				t |= trigWget
			}
		case 'p':
			if next == 'i' && strings.HasPrefix(s[i:], "pid") {
				t |= trigPID
			}
			if next == 'r' && strings.HasPrefix(s[i:], "process") {
				t |= trigProcess
			}
			if next == 's' && i > 0 && (s[i-1] == 'B' || s[i-1] == 'b') {
				t |= trigRate
			}
		case 'P':
			if strings.HasPrefix(s[i:], "PID") || strings.HasPrefix(s[i:], "Pid") {
				t |= trigPID
			}
			if next == 'r' && strings.HasPrefix(s[i:], "Process") {
				t |= trigProcess
			}
		case 't':
			switch next {
			case 'i':
				if strings.HasPrefix(s[i:], "time") {
					t |= trigTiming
				}
			case 'o':
				if strings.HasPrefix(s[i:], "took") {
					t |= trigTiming
				}
			case 'h':
				if strings.HasPrefix(s[i:], "thread '") {
					t |= trigThread
				}
			}
		case 'T':
			if next == 'i' && strings.HasPrefix(s[i:], "Time") {
				t |= trigTiming
			}
		case 'u':
			if next == 'r' && strings.HasPrefix(s[i:], "uration") {
				t |= trigTiming
			}
		case 'l':
			if next == 'a' && strings.HasPrefix(s[i:], "lapsed") {
				t |= trigTiming
			}
		case 'o':
			if next == 'r' && strings.HasPrefix(s[i:], "oroutine ") {
				t |= trigGoroutine
			}
		}
	}
	if colon {
		i := 0
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i < len(s) && isDigit(s[i]) {
			t |= trigCurl
		}
	}
	return t
}

// months are the three-letter month abbreviations monthRE starts with.
var months = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// monthBefore reports whether a month abbreviation lies within the 24
// bytes before s[i], a clock's first ':'. The date-words rule's longest
// span from a month to that colon is "September 30, 2026 12", 21 bytes.
func monthBefore(s string, i int) bool {
	for j := max(0, i-24); j+3 <= i; j++ {
		switch s[j] {
		case 'J', 'F', 'M', 'A', 'S', 'O', 'N', 'D':
			for _, m := range months {
				if s[j:j+3] == m {
					return true
				}
			}
		}
	}
	return false
}

// digitsAt reports whether s[i:i+n] are n digits.
func digitsAt(s string, i, n int) bool {
	if i < 0 || i+n > len(s) {
		return false
	}
	for _, c := range []byte(s[i : i+n]) {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// hexAt reports whether s[i:i+n] are n hex digits.
func hexAt(s string, i, n int) bool {
	if i < 0 || i+n > len(s) {
		return false
	}
	for _, c := range []byte(s[i : i+n]) {
		if !isDigit(c) && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// isDateAt reports whether s[i] ('-' or '/') is the first separator of
// "dddd-dd-dd dd:dd": the shape the datetime rule needs.
func isDateAt(s string, i int) bool {
	if !digitsAt(s, i-4, 4) || !digitsAt(s, i+1, 2) || !digitsAt(s, i+4, 2) || !digitsAt(s, i+7, 2) || !digitsAt(s, i+10, 2) {
		return false
	}
	sep, t := s[i+3], s[i+6]
	return (sep == '-' || sep == '/') && (t == 'T' || t == ' ' || t == '_') && s[i+9] == ':'
}
