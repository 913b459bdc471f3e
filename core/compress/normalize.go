package compress

import (
	"regexp"
	"strconv"
	"strings"
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
)

// ephemeralPortMin is the lowest port treated as volatile on a loopback or
// wildcard address: the start of Linux's default ephemeral range
// (net.ipv4.ip_local_port_range = 32768 60999; IANA's range starts at
// 49152). Fixed service ports such as 8080 stay.
const ephemeralPortMin = 32768

type rule struct {
	name string
	// trigger is a cheap test; the regexp runs only on lines it accepts.
	trigger func(string) bool
	re      *regexp.Regexp
	repl    string                  // used when fn is nil; may reference groups
	fn      func(m []string) string // whole-match replacement from submatches
}

// normRules are applied in order; each rule documents the volatile token it
// targets. Prefix groups such as (^|[^\w:.]) stand in for look-behind, which
// RE2 lacks, and are written back by the replacement.
var normRules = []rule{
	{ // curl's progress meter row: keep the size columns, drop speeds and times.
		name: "curl-meter", trigger: func(s string) bool { return startsWithDigit(s) && strings.Contains(s, ":") },
		re:   regexp.MustCompile(`^(\s*\d{1,3}\s+[\d.]+[kMGTP]?\s+\d{1,3}\s+[\d.]+[kMGTP]?\s+\d{1,3}\s+[\d.]+[kMGTP]?)\s+[\d.]+[kMGTP]?\s+[\d.]+[kMGTP]?\s+[\d:-]+\s+[\d:-]+\s+[\d:-]+\s+[\d.]+[kMGTP]?\s*$`),
		repl: "${1}  <progress>",
	},
	{ // wget's dot progress (non-TTY): keep offset, dots and percentage,
		// drop the speed and time columns.
		name: "wget-dots", trigger: func(s string) bool { return strings.Contains(s, "K .") },
		re:   regexp.MustCompile(`^(\s*\d+K(?: [.,]{1,10}){1,5}\s+\d+%)\s+\S+(?:\s+\S+)?\s*$`),
		repl: "${1} <progress>",
	},
	{ // RFC 3339 / ISO 8601 / Python logging asctime / Go log timestamps.
		name: "datetime", trigger: hasDateLike,
		re:   regexp.MustCompile(`\b\d{4}[-/]\d{2}[-/]\d{2}[T _]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2}\b| ?UTC\b)?`),
		repl: phTime,
	},
	{ // Clock times: 12:25:50, 0:00:06, 12:25:50.217.
		name: "clock", trigger: hasClockLike,
		re:   regexp.MustCompile(`(^|[^\w:.])\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b`),
		repl: "${1}" + phTime,
	},
	{ // UUIDs (request and run ids).
		name: "uuid", trigger: hasHexDash,
		re:   regexp.MustCompile(`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`),
		repl: phUUID,
	},
	{ // Temporary directories: the first component under a temp root when it
		// looks generated (a run of 5+ digits as in Go's t.TempDir and
		// os.MkdirTemp, or Python's mkdtemp 8-character suffix).
		name: "tmpdir", trigger: hasTempRoot,
		re: regexp.MustCompile(`((?:/private)?/var/folders/[^/\s]+/[^/\s]+/T|/(?:[\w.-]+/)*(?:tmp|temp|Temp|TEMP)|/dev/shm)/([^/\s"'` + "`" + `:,;)\]]+)`),
		fn: func(m []string) string {
			if isGeneratedName(m[2]) {
				return m[1] + "/" + phTmp
			}
			return m[0]
		},
	},
	{ // Data rates: 114 kB/s, 2.00MB/s, 3.4 MiB/s.
		name: "rate", trigger: func(s string) bool {
			return strings.Contains(s, "B/s") || strings.Contains(s, "b/s") || strings.Contains(s, "bps") || strings.Contains(s, "Bps")
		},
		re:   regexp.MustCompile(`\b\d+(?:\.\d+)?\s?[kKMGT]?i?[bB](?:ps|/s)\b`),
		repl: phRate,
	},
	{ // Spelled-out durations: 12 ms, 1.234 s, 3 seconds.
		name: "duration-words", trigger: hasDigitSpaceLetter,
		re: regexp.MustCompile(`(^|[^\w.])\d+(?:\.\d+)?\s(?:ms|msecs?|milliseconds?|secs?|seconds?|minutes?|mins?)\b|(^|[^\w.])\d+\.\d+ s\b`),
		fn: func(m []string) string {
			return m[1] + m[2] + phDur
		},
	},
	{ // Heap and stack addresses (5+ hex digits; short code offsets such as
		// Go's +0x1d stay).
		name: "hexaddr", trigger: func(s string) bool { return strings.Contains(s, "0x") },
		re:   regexp.MustCompile(`\b0x[0-9a-fA-F]{5,}\b`),
		repl: phAddr,
	},
	{ // Process ids: "pid 31188", "[pid 30670]", "pid=12", "PID: 7".
		name: "pid", trigger: func(s string) bool {
			return strings.Contains(s, "pid") || strings.Contains(s, "PID") || strings.Contains(s, "Pid")
		},
		re:   regexp.MustCompile(`\b(pid|PID|Pid)([ =:#]+)\d+\b`),
		repl: "${1}${2}" + phPID,
	},
	{ // syslog-style "name[1234]:".
		name: "pid-bracket", trigger: func(s string) bool { return strings.Contains(s, "]:") },
		re:   regexp.MustCompile(`\b([A-Za-z][\w.-]*)\[\d{2,}\]:`),
		repl: "${1}[" + phPID + "]:",
	},
	{ // Thread ids in Rust panics: "thread 'main' (12246) panicked".
		name: "thread-id", trigger: func(s string) bool { return strings.Contains(s, "thread '") },
		re:   regexp.MustCompile(`(thread '[^']*') \(\d+\)`),
		repl: "${1} (" + phN + ")",
	},
	{ // Timing fields of structured output: "duration_ms: 38.44" (TAP/YAML),
		// "# duration_ms 632.78", "elapsed=1.2", "took 35".
		name: "timing-field", trigger: hasTimingKey,
		re:   regexp.MustCompile(`(?i)\b((?:duration|elapsed|took|time)(?:_?(?:ms|ns|us|secs?|seconds))?["']?\s*[:= ]\s*)\d+(?:\.\d+)?\b`),
		repl: "${1}" + phDur,
	},
	{ // Goroutine numbers: "goroutine 65 [running]", "in goroutine 1",
		// "Goroutine 9 (running) created at:" (race reports).
		name: "goroutine", trigger: func(s string) bool { return strings.Contains(s, "oroutine ") },
		re:   regexp.MustCompile(`\b([Gg])oroutine \d+\b`),
		repl: "${1}oroutine " + phN,
	},
	{ // Ephemeral ports on loopback or wildcard addresses.
		name: "port", trigger: hasLoopback,
		re: regexp.MustCompile(`\b(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]|::1?):(\d{5})\b`),
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
var durationRe = regexp.MustCompile(`(^|[^\w.])(?:\d+(?:\.\d+)?(?:ns|µs|us|ms|s|m|h)){1,3}\b`)

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
// give the same text: timestamps and clock times (<time>), durations
// (<dur>), data rates (<rate>), heap addresses (0x<addr>), process ids
// (<pid>), goroutine numbers (goroutine <n>), ephemeral loopback ports
// (<port>), generated temporary directory names (<tmp>), UUIDs (<uuid>) and
// the speed/time columns of curl's and wget's progress output (<progress>). It is
// idempotent on its own output.
func Normalize(line string) string {
	return reporterTimings(normalizeTokens(line))
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
	if i := strings.Index(line, ", estimated "); i >= 0 && strings.HasPrefix(strings.TrimLeft(line, " "), "Time:") {
		return line[:i]
	}
	return line
}

// normalizeTokens applies the normalisation rules to one line.
func normalizeTokens(line string) string {
	digits := hasDigit(line)
	if digits && hasDigitUnit(line) {
		line = normDurations(line)
	}
	for i := range normRules {
		r := &normRules[i]
		// Every volatile token but a temp dir name holds a digit.
		if !digits && r.name != "tmpdir" || !r.trigger(line) {
			continue
		}
		if r.fn != nil {
			line = replaceFunc(r.re, line, r.fn)
		} else {
			line = r.re.ReplaceAllString(line, r.repl)
		}
	}
	return line
}

// replaceFunc is regexp.ReplaceAllStringFunc with access to submatches.
func replaceFunc(re *regexp.Regexp, s string, fn func([]string) string) string {
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
// os.MkdirTemp and t.TempDir, go-build123…), or ends in an 8-character
// [a-z0-9_] suffix after "tmp" or a separator (Python's tempfile.mkdtemp).
func isGeneratedName(name string) bool {
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

func itoa(n int) string { return strconv.Itoa(n) }

// The triggers below are necessary conditions of their rule's regexp,
// checked in one pass without backtracking; they keep normalisation of a
// 1 MB output within a few milliseconds.

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func startsWithDigit(s string) bool {
	t := strings.TrimLeft(s, " \t")
	return t != "" && isDigit(t[0])
}

// hasDateLike: four digits followed by '-' or '/'.
func hasDateLike(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		switch {
		case isDigit(s[i]):
			run++
		case run >= 4 && (s[i] == '-' || s[i] == '/'):
			return true
		default:
			run = 0
		}
	}
	return false
}

// hasClockLike: digit ':' digit digit ':'.
func hasClockLike(s string) bool {
	for i := 1; i+4 < len(s); i++ {
		if s[i] == ':' && isDigit(s[i-1]) && isDigit(s[i+1]) && isDigit(s[i+2]) && s[i+3] == ':' {
			return true
		}
	}
	return false
}

// hasDigitUnit: a digit directly followed by a duration unit's first byte.
func hasDigitUnit(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if isDigit(s[i]) {
			switch s[i+1] {
			case 'n', 'u', 'm', 's', 'h', 0xc2: // 0xc2: first byte of µ
				return true
			}
		}
	}
	return false
}

// hasDigitSpaceLetter: a digit, one space, then m or s (ms, sec, min …).
func hasDigitSpaceLetter(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if isDigit(s[i]) && s[i+1] == ' ' && (s[i+2] == 'm' || s[i+2] == 's') {
			return true
		}
	}
	return false
}

func hasTempRoot(s string) bool {
	for i := strings.IndexByte(s, '/'); i >= 0; {
		head := s[:i]
		if strings.HasSuffix(head, "tmp") || strings.HasSuffix(head, "temp") || strings.HasSuffix(head, "Temp") ||
			strings.HasSuffix(head, "TEMP") || strings.HasSuffix(head, "/T") || strings.HasPrefix(s[i:], "/dev/shm/") {
			return true
		}
		j := strings.IndexByte(s[i+1:], '/')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func hasLoopback(s string) bool {
	return strings.Contains(s, "localhost:") || strings.Contains(s, "127.0.0.1:") ||
		strings.Contains(s, "0.0.0.0:") || strings.Contains(s, "::")
}

// hasHexDash: eight hex digits followed by '-', the start of a UUID.
func hasHexDash(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F':
			run++
		case c == '-' && run >= 8:
			return true
		default:
			run = 0
		}
	}
	return false
}

func hasTimingKey(s string) bool {
	return strings.Contains(s, "uration") || strings.Contains(s, "lapsed") || strings.Contains(s, "took") ||
		strings.Contains(s, "time") || strings.Contains(s, "Time")
}
