package compress

import (
	"strings"
	"testing"
)

// refTriggers are the triggers of the first implementation of Normalize,
// one plain test each. scanTriggers finds them in one pass, and tighter
// where the rule's regexp needs more (trigDate, trigHex, trigPort); the
// reference normaliser refNormalize runs on these.
var refTriggers = map[trigger]func(string) bool{
	trigCurl: func(s string) bool {
		t := strings.TrimLeft(s, " \t")
		return t != "" && isDigit(t[0]) && strings.Contains(s, ":")
	},
	trigWget: func(s string) bool { return strings.Contains(s, "K .") },
	trigDate: func(s string) bool { // four digits followed by '-' or '/'
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
	},
	trigClock: func(s string) bool { // digit ':' digit digit ':' and one more byte
		for i := 1; i+4 < len(s); i++ {
			if s[i] == ':' && isDigit(s[i-1]) && isDigit(s[i+1]) && isDigit(s[i+2]) && s[i+3] == ':' {
				return true
			}
		}
		return false
	},
	trigUUID: func(s string) bool { // eight hex digits followed by '-'
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
	},
	trigTmp: func(s string) bool {
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
	},
	trigRate: func(s string) bool {
		return strings.Contains(s, "B/s") || strings.Contains(s, "b/s") || strings.Contains(s, "bps") || strings.Contains(s, "Bps")
	},
	trigDurWords: func(s string) bool {
		for i := 0; i+2 < len(s); i++ {
			if isDigit(s[i]) && s[i+1] == ' ' && (s[i+2] == 'm' || s[i+2] == 's') {
				return true
			}
		}
		return false
	},
	trigHex: func(s string) bool { return strings.Contains(s, "0x") },
	trigPID: func(s string) bool {
		return strings.Contains(s, "pid") || strings.Contains(s, "PID") || strings.Contains(s, "Pid")
	},
	trigPIDBracket: func(s string) bool { return strings.Contains(s, "]:") },
	trigThread:     func(s string) bool { return strings.Contains(s, "thread '") },
	trigTiming: func(s string) bool {
		return strings.Contains(s, "uration") || strings.Contains(s, "lapsed") || strings.Contains(s, "took") ||
			strings.Contains(s, "time") || strings.Contains(s, "Time")
	},
	trigGoroutine: func(s string) bool { return strings.Contains(s, "oroutine ") },
	trigPort: func(s string) bool {
		return strings.Contains(s, "localhost:") || strings.Contains(s, "127.0.0.1:") ||
			strings.Contains(s, "0.0.0.0:") || strings.Contains(s, "::")
	},
	trigDigit: func(s string) bool {
		return strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0
	},
	trigMonthClock: func(s string) bool { // a month abbreviation anywhere
		for _, m := range months {
			if strings.Contains(s, m) {
				return true
			}
		}
		return false
	},
	trigSlashYear: func(s string) bool { // a digit, '/', four digits
		for i := 1; i < len(s); i++ {
			if s[i] == '/' && isDigit(s[i-1]) && digitsAt(s, i+1, 4) {
				return true
			}
		}
		return false
	},
	trigProcess: func(s string) bool { return strings.Contains(s, "process") || strings.Contains(s, "Process") },
	trigLongNum: func(s string) bool {
		run := 0
		for i := 0; i < len(s); i++ {
			if run = run + 1; !isDigit(s[i]) {
				run = 0
			}
			if run >= 10 {
				return true
			}
		}
		return false
	},
	trigDigitUnit: func(s string) bool {
		for i := 0; i+1 < len(s); i++ {
			if isDigit(s[i]) && strings.IndexByte("numsh\xc2", s[i+1]) >= 0 {
				return true
			}
		}
		return false
	},
}

// refNormalize is the reference implementation of Normalize: each rule's
// regexp behind its reference trigger, durations by durationRe, the
// progress-bar rule without its guard.
func refNormalize(line string) string {
	if isCommitDate(line) {
		return line
	}
	line = normElapsedRemaining(line) // without Normalize's guard
	digits := refTriggers[trigDigit](line)
	if digits && refTriggers[trigDigitUnit](line) {
		line = durationRe.ReplaceAllString(line, "${1}"+phDur)
	}
	for _, r := range normRules {
		if !digits && r.trigger != trigTmp || !refTriggers[r.trigger&^trigDurUnit](line) {
			continue
		}
		if r.fn != nil {
			line = replaceFunc(r.re, line, r.fn)
		} else {
			line = r.re.ReplaceAllString(line, r.repl)
		}
	}
	line = reporterTimings(line)
	// The id rules without their cheap guard (keyBeforeHex).
	line = replaceFunc(hexIDRe, line, hexID)
	line = replaceFunc(reqIDRe, line, hexID)
	return squeezePadding(normIDsAndSizes(line))
}

// checkTriggers checks scanTriggers against the reference triggers on s:
// the digit triggers are the same, and a rule's trigger is set whenever
// its reference trigger is and its regexp matches. Normalize must equal
// refNormalize.
func checkTriggers(t *testing.T, s string) {
	t.Helper()
	got := scanTriggers(s)
	for _, bit := range []trigger{trigDigit, trigDigitUnit} {
		if want := refTriggers[bit](s); (got&bit != 0) != want {
			t.Errorf("scanTriggers(%q): trigger %#x = %v, reference %v", s, bit, got&bit != 0, want)
		}
	}
	for _, r := range normRules {
		ref := refTriggers[r.trigger&^trigDurUnit] // trigDurUnit only tightens trigDurWords
		if got&r.trigger != r.trigger && ref(s) && r.re.MatchString(s) {
			t.Errorf("scanTriggers(%q) misses the trigger of rule %s", s, r.name)
		}
	}
	if got, want := Normalize(s), refNormalize(s); got != want {
		t.Errorf("Normalize(%q)\n got %q\nwant %q (reference)", s, got, want)
	}
}

func TestTriggersMatchReference(t *testing.T) {
	if len(refTriggers) != 21 {
		t.Fatalf("%d reference triggers, want one per trigger bit but trigDurUnit", len(refTriggers))
	}
	edge := []string{"", "1", "12:34:5", "12:34:56", "1:23:45x", "2024-", "2024/", "123-", "deadbeef-", "deadbee-", "xdeadbeef0-",
		"/tmp/", "tmp/", "/var/folders/x/y/T/", "/dev/shm/", "/dev/shm", "5 B/s", "bps", "Bps", "5 m", "5 s", "5 ", "0x", "0",
		"pid", "Pi", "PID", "Pid", "a]:", "]", "thread '", "thread", "took", "time", "Time", "uration", "lapsed", "oroutine ",
		"localhost:", "127.0.0.1:", "0.0.0.0:", "::", ":", "  7:", "\t7 x:", "7", "1n", "1µ", "1h", "6144K .", "K .",
		"2026-11-30T12:25", "2026/11/30_12:25", "2026-11-30 12:2", "2026-11-3012:25", "0x12345", "0x1234", "0xabcdeF",
		"localhost:45678", "127.0.0.1:45678", "0.0.0.0:4567", "[::1]:45678", "[::]:45678", ":::45678", "::1:45678", "x]:45678",
		"5 sx 3\tms", "1 ms", "2 mil", "3 min", "4 sec", "5.5 s", "6 s.", "7 sx", "8 m", "9\tseconds",
		"Mon, 30 Nov 2026 12:34:56 GMT", "30/Nov/2026:12:34:56 +0000", "September 30, 2026 12:34:56", "Nov  3 1:02:03 PM",
		"Sun Nov 30 12:34:56 UTC 2026", "Date:   Mon Nov 30 12:34:56 2026 +0000", "Nov 30 12:34:56 INFO x", "Nov12:34:56",
		"4/4/2026 1:02:03 PM", "11/30/2026, 13:02", "1/2/2026x", "4/4/20261 1:02", "ts=1732981234", `"time": 1732981234567`,
		"size=1732981234", "ts=17329812345", "ts=4732981234", "t_ms=1732981234567.5", "createdAt: 1732981234", "123456789",
		"Killed process 1234", "Process ID: 42", "process 7 of 9", "1:02:03PM", "1:02:03 pm", "1:02:03 PMx", "1:02:03.5 AM"}
	for _, s := range append(allCaseLines(t), edge...) {
		checkTriggers(t, s)
	}
}

func FuzzTriggers(f *testing.F) {
	for _, s := range []string{"2026-11-30T12:25:50Z pid 7 0xdeadbeef0", "/tmp/go-build123456/b001", "took 5 ms 1.2 MB/s", "[::1]:45678", "deadbeef-1234"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkTriggers(t, s) })
}

// clockEdges are lines where the clock rule's regexp backtracks or its
// prefix is a multi-byte rune.
var clockEdges = []string{"12:34:56", "1:23:45", "123:45:67", "x12:34:56", ":12:34:56", ".12:34:56", "é12:34:56", "\xff12:34:56",
	"12:34:567", "12:34:56.7", "12:34:56.7x", "12:34:56,789 z", "12:34:56.x", "12:34:56.", "at 1:2:3", "12:34:56 12:34:56",
	"12:34:5612:34:56", "(0:00:06)", "9:59:59_", "a 12:34", "12:3:45", " 2:34:56.12.3",
	"Time: 3", "TIME=4.5", "took 35", "xtook 35", "took  35x", "took 35.5x", "duration_ms: 38.44", "DurationSecs=5", "elapsed_seconds :  7",
	"time\"=5", "time' 5", "time'5", "time\t=\t6", "time:\t\t", "time = x", "elapſed: 3", "tooK 9", "time_sec: 1", "time_secs 2",
	"timeseconds 3", "time_ 4", "runtime: 5", "(took 12)", "time:5 took:6", "duration=1.2.3", "time=1.x",
	"1:02:03 PM", "1:02:03PM", "1:02:03 pm.", "1:02:03  PM", "1:02:03 PMx", "1:02:03PMx", "1:02:03.5PM", "1:02:03.5 am",
	"1:02:03.5x PM", "1:02:03.PM", "1:02:03,7 Am_", "12:34:56 P", "12:34:56 AMPM", "12:34:56 M",
	"a.ts=1732981234", "x-ts = '1732981234'", "9ts=1732981234", "ts=1732981234.5x", "ts=1732981234x", "ts=1732981234.5.6",
	"ts:=1732981234", "ts==1732981234", "ts=1732981234 ts=1732981234", "ts=1732981234ts=1732981234", "_ts=2732981234567",
	"ts=\t\"1732981234\"", "'ts' : 1732981234", "ts\"\"=1732981234", "ts=1732981234.ts=1732981234", "é_ts=1732981234",
	"ts=0732981234", "ts= 1732981234567890123", "ts=17329812345678901234", "-ts=1732981234", "ts.=1732981234", "Ts=1732981234_",
	"Mon, 30 Nov 2026 12:34:56 GMT Tue, 01 Dec 2026 01:02:03 GMT", "xMon, 30 Nov 2026 12:34:56", "30 Nov 2026 12:34:56.123456789 +0000 2026",
	"Wednesday, 30 September 2026 12:34:56 CEST", "Wednesday, September 30, 2026 12:34:56", "Nov 30 12:34:56 12:34:56 Nov 30 1:02:03",
	"30/Nov/2026:12:34:56 +0000]", "130 Nov 2026 12:34:56", "Nov 3012:34:56", "Nov 30 12:34:56x", "Nov 30 12:34:56 UTCx 2026",
	"process 12", "Process ID: 42", "process id=99x", "process id 7", "process iD#12 process 34", "xprocess 12", "process  :=12",
	"Process 1", "process 123456789", "processes 12", "process ids 12", "process 12_", "process", "Process ID", "process 12.5"}

// TestFastRulesMatchRegexps checks every rule's fast replacement against
// its regexp on every real line and the edge cases.
func TestFastRulesMatchRegexps(t *testing.T) {
	n := 0
	for _, r := range normRules {
		if r.fast == nil {
			continue
		}
		n++
		for _, l := range append(allCaseLines(t), clockEdges...) {
			if got, want := r.fast(l), r.slow(l); got != want {
				t.Errorf("rule %s on %q: got %q, regexp gives %q", r.name, l, got, want)
			}
		}
	}
	if n == 0 {
		t.Fatal("no rule has a fast replacement")
	}
}

func FuzzFastRules(f *testing.F) {
	for _, s := range clockEdges {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range normRules {
			if r.fast != nil {
				if got, want := r.fast(s), r.slow(s); got != want {
					t.Fatalf("rule %s on %q: got %q, regexp gives %q", r.name, s, got, want)
				}
			}
		}
	})
}

// slow applies the rule with its regexp: the reference of its fast path.
func (r *rule) slow(s string) string {
	if r.fn != nil {
		return replaceFunc(r.re, s, r.fn)
	}
	return r.re.ReplaceAllString(s, r.repl)
}
