package compress

import (
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/vaultctx/vaultctx/core/internal/shell"
)

// kind is what a cleaned, normalised line is, as far as keeping it goes.
type kind uint8

const (
	kindPlain   kind = iota
	kindBlank        // only whitespace
	kindError        // error, failure, panic, exception, traceback, fatal
	kindWarning      // warning, deprecation
	kindSummary      // a verdict or count line: "ok  pkg", "18 passing, 2 failing"
	kindFrame        // a stack frame or other source location line
	kindExcerpt      // a compiler's quoted source line or caret marker
	kindTestLog      // a test's log line with its location ("x_test.go:36: msg")
)

// Line patterns. Only the anchored ones run on every line; the others run
// behind cheap necessary-condition checks (see classify), so classifying a
// 1 MB output takes milliseconds.
var (
	// errorMarkRe is the reference definition of hasErrorMark: markers that
	// start a failure line: ✗ test, pytest's "E   …", mocha's "1) suite",
	// FAILED/FAIL/not ok (TAP), "***" (make).
	errorMarkRe = lazyCompile(`^\s*(?:[✗✕✖✘×❌●💥]|E\s{2,}\S|\d+\) \S|FAILED\b|FAIL\b|not ok\b|\*\*\*)`)
	// Python/Java/JS exception lines: "KeyError: 'x'", "java.lang.IllegalStateException: …".
	exceptionRe = lazyCompile(`^\s*(?:[\w.$]+\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Fault|Failure)\b(?:\s*\[[\w_]+\])?(?::|$)`)
	// Go test log lines printed by t.Log/t.Error: "    calc_test.go:36: msg",
	// "    testing.go:1712: race detected during execution of test".
	goTestLogRe = lazyCompile(`^\s+\w[\w.-]*\.go:\d+: `)
	// Stack frames and source locations, one pattern per language, each
	// behind a prefix check in isFrame.
	goFrameRe = lazyCompile(`^[\t ]+\S+\.\w+:\d+(?:\s+\+0x[0-9a-f]+)?$`)
	goFuncRe  = lazyCompile(`^[\w./*()-]+\([^)]*\)$`)
	// An indented Go function line of a race report or trace, checked only
	// above a more indented file:line frame (see assignTiers).
	goIndentedFuncRe = lazyCompile(`^\s+[\w./*()-]+\([^)]*\)$`)
	pyFrameRe        = lazyCompile(`^\s*File "[^"]+", line \d+`)
	atFrameRe        = lazyCompile(`^\s+at \S.*(?::\d+(?::\d+)?\)?|\(native\)|\(<anonymous>\))$`)
	rustArrowRe      = lazyCompile(`^\s*--> \S+:\d+`)
	numberedFrameRe  = lazyCompile(`^\s+\d+: (?:\S*::\S|0x[0-9a-f]+|<)`)
	fileLineRe       = lazyCompile(`^[^\s:]+\.\w{1,5}:\d+:(?: |$)`)
	bareLocRe        = lazyCompile(`^\S+\.\w{1,5}:\d+(?::\d+)?$`)
	// Lines that only quote source under a diagnostic: "   12 |  code",
	// "      |  ^~~", jest's "  > 4 |  code".
	excerptRe = lazyCompile(`^\s*(?:>\s*)?(?:\d*\s+\|(?:\s|$)|[~^]+[~^\s|]*$)`)
)

// Vocabulary of errors, warnings and summaries, matched on the lowercased
// ASCII words of a line after path-like tokens are dropped (so "errors.go"
// or ".../testdata/fail/" in a file list is not an error). Each word maps to
// a set of vocabulary flags, so a word costs one map lookup.
const (
	vErr       uint16 = 1 << iota // an error word
	vWarn                         // a warning word
	vVerdict                      // opens a verdict line: "ok  pkg", "FAIL", "Done"
	vCountLead                    // opens a summary before a number: "added 77 packages"
	vCount                        // counted by a summary: "18 passing", "2 errors"
	vPhrase                       // may end a two-word phrase (see phrases)
)

var vocab = func() map[string]uint16 {
	m := map[string]uint16{}
	for flag, list := range map[uint16]string{
		vErr: `error errors fatal fail fails failed failure failures failing panic panicked panics
			exception traceback abort aborted assert assertion assertionerror denied refused cannot
			undefined undeclared unresolved timeout killed unreachable mismatched invalid illegal
			unexpected overflow violation segfault`,
		vWarn:      `warn warning warnings deprecated deprecation`,
		vVerdict:   `ok fail pass passed failed success succeeded done finished built compiled`,
		vCountLead: `added removed changed audited ran collected`,
		vCount: `passed failed passing failing pending skipped ignored error errors warning warnings
			test tests example examples spec specs suite suites insertion insertions deletion deletions
			package packages upgraded vulnerability vulnerabilities problem problems issue issues match
			matches check checks failures`,
	} {
		for _, w := range strings.Fields(list) {
			m[w] |= flag
		}
	}
	for p := range phrases {
		m[p[strings.IndexByte(p, ' ')+1:]] |= vPhrase
	}
	return m
}()

// vocabTable is vocab as an open-addressing hash table keyed by
// vocabHash, so looking up a word costs one hash (computed while the word
// is lowercased) and usually one probe.
var vocabTable = func() (t [vocabSlots]vocabEntry) {
	for w, f := range vocab {
		h := uint32(vocabHashInit)
		for i := 0; i < len(w); i++ {
			h = vocabHash(h, w[i])
		}
		i := h & (vocabSlots - 1)
		for t[i].word != "" {
			i = (i + 1) & (vocabSlots - 1)
		}
		t[i] = vocabEntry{word: w, flags: f}
	}
	return t
}()

// vocabSlots is the size of vocabTable, a power of two at least four times
// the vocabulary.
const vocabSlots = 512

type vocabEntry struct {
	word  string
	flags uint16
}

// vocabHash is one step of 32-bit FNV-1a.
func vocabHash(h uint32, c byte) uint32 { return (h ^ uint32(c)) * 16777619 }

const vocabHashInit = 2166136261

// vocabFlags returns the vocabulary flags of w (lowercased; h is its
// vocabHash), 0 for a word not in vocab.
func vocabFlags(w []byte, h uint32) uint16 {
	for i := h & (vocabSlots - 1); ; i = (i + 1) & (vocabSlots - 1) {
		e := &vocabTable[i]
		if e.word == string(w) {
			return e.flags
		}
		if e.word == "" {
			return 0
		}
	}
}

const filterSize = 4096

// filterSlot hashes a word by its length and first two and last bytes.
func filterSlot(w []byte) int {
	if len(w) == 0 {
		return 0
	}
	h := uint(len(w))*131 + uint(w[0])*31 + uint(w[len(w)-1])*7 + uint(w[len(w)/2])
	return int(h % filterSize)
}

// hasErrorMark is errorMarkRe without a regexp (a test checks they agree).
func hasErrorMark(line string) bool {
	t := line
	for t != "" && (t[0] == ' ' || t[0] == '\t' || t[0] == '\n' || t[0] == '\f' || t[0] == '\r') {
		t = t[1:]
	}
	if t == "" {
		return false
	}
	if t[0] >= 0x80 || t[0] == '*' { // the lead byte of a mark
		for _, m := range []string{"✗", "✕", "✖", "✘", "×", "❌", "●", "💥", "***"} {
			if strings.HasPrefix(t, m) {
				return true
			}
		}
	}
	wordAt := func(w string) bool {
		return strings.HasPrefix(t, w) && (len(t) == len(w) || !isWordByte(t[len(w)]))
	}
	switch t[0] {
	case 'E':
		i := 1
		for i < len(t) && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\f' || t[i] == '\r') {
			i++
		}
		if i >= 3 && i < len(t) {
			return true
		}
	case 'F':
		return wordAt("FAILED") || wordAt("FAIL")
	case 'n':
		return wordAt("not ok")
	}
	if isDigit(t[0]) {
		i := 0
		for i < len(t) && isDigit(t[i]) {
			i++
		}
		return i+2 < len(t) && t[i] == ')' && t[i+1] == ' ' && t[i+2] != ' ' && t[i+2] != '\t' && t[i+2] != '\n' && t[i+2] != '\f' && t[i+2] != '\r'
	}
	return false
}

// phrases are two-word vocabulary entries: error phrases ("could not") and
// counted phrases that follow a number ("1 file changed").
var phrases = map[string]uint16{
	"could not": vErr, "unable to": vErr, "not found": vErr, "no such": vErr, "segmentation fault": vErr,
	"core dumped": vErr, "timed out": vErr, "out of": vErr, "not used": vErr, "not declared": vErr,
	"can t": vErr, "couldn t": vErr, "npm err": vErr, "data race": vErr,
	"file changed": vCount, "files changed": vCount, "newly installed": vCount, "to remove": vCount,
	"not upgraded": vCount,
}

var exceptionSuffixes = []string{"error", "exception", "exit", "interrupt", "fault", "failure"}

// lineWords is what classify needs from a line's words.
type lineWords struct {
	err, warn, summary, exception bool
}

// maxScanWords bounds the words of a line that scanWords looks at.
const maxScanWords = 48

// scanWords lowercases the ASCII words of line, skipping path-like tokens,
// and looks them and their bigrams up in the vocabulary. A line is a
// summary when it opens with a verdict word, with "up to date", "fetched"
// or "summary", with a count lead word and a number, when a number is
// followed by a counted word or phrase, or when it is a banner such as
// pytest's "=== 1 failed, 2 passed in <dur> ===". It does not allocate and
// reads each byte of line once (the words of a token are looked up as they
// are read, and dropped again when the token turns out to be a path).
func scanWords(line string) lineWords {
	var lw lineWords
	var arena [512]byte
	type word struct {
		s, e  uint16 // arena[s:e]
		flags uint16
		num   bool // all digits
	}
	var refs [maxScanWords]word
	n, used := 0, 0
	get := func(k int) []byte { return arena[refs[k].s:refs[k].e] }

	for i := 0; i < len(line) && n < maxScanWords; {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			break
		}
		start, n0, used0 := i, n, used
		path, dot := false, false
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			c := line[i]
			if lowerAlnum[c] == 0 {
				switch c {
				case '/', '\\':
					path = true
				case '.':
					dot = true
				}
				i++
				continue
			}
			ws, h, num := used, uint32(vocabHashInit), true
			for ; i < len(line); i++ {
				c := lowerAlnum[line[i]]
				if c == 0 {
					break
				}
				if used == len(arena) {
					continue
				}
				num = num && c <= '9'
				h = vocabHash(h, c)
				arena[used] = c
				used++
			}
			if used > ws && n < maxScanWords {
				refs[n] = word{s: uint16(ws), e: uint16(used), flags: vocabFlags(arena[ws:used], h), num: num}
				n++
			}
		}
		if path || dot && looksLikeFile(line[start:i]) {
			n, used = n0, used0
			if n > 0 && refs[n-1].e > refs[n-1].s {
				refs[n] = word{} // a path breaks phrases
				n++
			}
		}
	}

	var pbuf [64]byte
	phrase := func(a, b int) uint16 {
		if refs[b].flags&vPhrase == 0 || refs[a].e == refs[a].s {
			return 0
		}
		p := append(append(append(pbuf[:0], get(a)...), ' '), get(b)...)
		return phrases[string(p)]
	}
	for k := 0; k < n; k++ {
		f := refs[k].flags
		if f&vErr != 0 || k > 0 && phrase(k-1, k)&vErr != 0 {
			lw.err = true
		}
		if f&vWarn != 0 {
			lw.warn = true
		}
		w := get(k)
		if len(w) > 7 && w[len(w)-1] == 'g' && string(w[len(w)-7:]) == "warning" {
			lw.warn = true // DeprecationWarning, UserWarning
		}
		if !lw.exception && len(w) > 4 && hasExceptionSuffix(w) {
			lw.exception = true
		}
		if !lw.summary && refs[k].num && k+1 < n &&
			(refs[k+1].flags&vCount != 0 || k+2 < n && phrase(k+1, k+2)&vCount != 0) {
			lw.summary = true
		}
	}
	if n > 0 && !lw.summary {
		first := string(get(0))
		f := refs[0].flags
		switch {
		case f&vVerdict != 0 && firstTokenIs(line, first) && !(first == "ok" && n > 1 && refs[1].num), // not TAP's "ok 3 - name"
			first == "fetched" || first == "summary",
			first == "up" && n > 2 && string(get(1)) == "to" && string(get(2)) == "date",
			f&vCountLead != 0 && n > 1 && refs[1].num:
			lw.summary = true
		}
	}
	if !lw.summary && isBanner(line) {
		for k := 0; k < n; k++ {
			switch string(get(k)) {
			case "passed", "failed", "error", "errors":
				lw.summary = true
			}
		}
	}
	return lw
}

// hasExceptionSuffix reports whether a lowercased word ends in one of
// exceptionSuffixes ("keyerror", "illegalstateexception").
func hasExceptionSuffix(w []byte) bool {
	switch w[len(w)-1] {
	case 'r', 'n', 't', 'e':
		for _, suf := range exceptionSuffixes {
			if len(w) >= len(suf) && string(w[len(w)-len(suf):]) == suf {
				return true
			}
		}
	}
	return false
}

// lowerAlnum maps ASCII letters and digits to themselves lowercased, and
// every other byte to 0.
var lowerAlnum = func() (t [256]byte) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'A' && c <= 'Z':
			t[c] = byte(c) + 'a' - 'A'
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			t[c] = byte(c)
		}
	}
	return t
}()

func isAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) }

func isNumberBytes(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// firstTokenIs reports whether line's first token is word, ignoring case
// and trailing punctuation ("ok", "FAIL", "Done.", "PASS:").
func firstTokenIs(line, word string) bool {
	t := strings.TrimLeft(line, " \t#") // TAP comments: "# pass 26"
	end := 0
	for end < len(t) && isWordByte(t[end]) {
		end++
	}
	return strings.EqualFold(t[:end], word)
}

// isBanner reports whether line is framed by runs of '=', '_' or '-'.
func isBanner(line string) bool {
	t := strings.TrimSpace(line)
	if len(t) < 8 {
		return false
	}
	c := t[0]
	n := len(t)
	return (c == '=' || c == '_' || c == '-') && t[1] == c && t[2] == c && t[n-1] == c && t[n-2] == c && t[n-3] == c
}

func looksLikeFile(w string) bool {
	i := strings.LastIndexByte(w, '.')
	if i < 0 {
		return false
	}
	// Trim closing punctuation and quotes: "parser.c:", "(x.go)", "‘a.h’".
	for len(w) > 0 && strings.IndexByte(`'"`+"`"+`:,;()[]`, w[len(w)-1]) >= 0 {
		w = w[:len(w)-1]
	}
	w = strings.TrimSuffix(w, "’")
	i = strings.LastIndexByte(w, '.')
	if i <= 0 || i == len(w)-1 || len(w)-i-1 > 5 {
		return false
	}
	for _, c := range []byte(w[i+1:]) {
		if !(c >= 'a' && c <= 'z' || isDigit(c)) {
			return false
		}
	}
	return true
}

// classify returns a line's kind. data is true for a stdout whose content
// is data (grep matches, file lists, logs shown by git), where words such as
// "error" are content, not diagnostics: such lines are only ever plain or
// blank.
func classify(line string, data bool) kind {
	t := strings.TrimSpace(line)
	if t == "" {
		return kindBlank
	}
	if data {
		return kindPlain
	}
	if t[0] == '{' && (strings.HasPrefix(t, `{"Time":`) || strings.HasPrefix(t, `{"Action":`)) {
		if k, ok := classifyTestEvent(t); ok {
			return k
		}
	}
	// apt's one-letter severities: "E: Unable to locate package x",
	// "W: Some index files failed to download".
	if strings.HasPrefix(line, "E: ") {
		return kindError
	}
	if strings.HasPrefix(line, "W: ") || strings.HasPrefix(line, "N: ") {
		return kindWarning
	}
	if strings.HasPrefix(line, "note: ") || strings.HasPrefix(line, "help: ") {
		// rustc's sub-diagnostics under an error ("note: consider changing
		// this parameter type", "help: consider cloning the value"): part
		// of the diagnostic above, kept beside it like its source excerpt.
		return kindExcerpt
	}
	lw := scanWords(line)
	if msg := diagStart(line); msg >= 0 {
		if lw.warn && !scanWords(line[msg:]).err {
			return kindWarning
		}
		if strings.Contains(line, ": note: ") {
			return kindExcerpt
		}
		return kindError
	}
	if (strings.IndexByte(t, '|') >= 0 || strings.IndexByte(t, '^') >= 0 || strings.IndexByte(t, '~') >= 0) && excerptRe.MatchString(line) {
		return kindExcerpt
	}
	if isFrame(line, t) {
		return kindFrame
	}
	if hasErrorMark(line) || lw.exception && exceptionRe.MatchString(line) {
		return kindError
	}
	if strings.Contains(line, ".go:") && goTestLogRe.MatchString(line) {
		return kindTestLog
	}
	if lw.summary || strings.HasPrefix(line, "?   \t") && strings.HasSuffix(line, "\t[no test files]") {
		// go test's third per-package verdict, beside "ok" and "FAIL".
		return kindSummary
	}
	if lw.err {
		return kindError
	}
	if lw.warn {
		return kindWarning
	}
	return kindPlain
}

// classifyTestEvent classifies one event of go test -json (test2json: a
// JSON object with Action, Package, Test, Output, as "go doc
// cmd/test2json" describes): an "output" event as the line it carries
// (so "--- FAIL: TestX" in it is an error and "FAIL\tpkg\t0.2s" a
// verdict), a package's "pass", "fail" or "skip" as a verdict, a test's
// "fail" as an error, and the rest (run, pause, cont, a test's pass) as
// plain lines. ok is false when line is not such an event.
func classifyTestEvent(line string) (k kind, ok bool) {
	ev := gjson.GetMany(line, "Action", "Test", "Output")
	if ev[0].Type != gjson.String {
		return 0, false
	}
	switch action := ev[0].Str; {
	case action == "output":
		out := strings.TrimRight(ev[2].String(), "\n")
		if out == "" || strings.HasPrefix(strings.TrimSpace(out), "{") {
			return kindPlain, true
		}
		return classify(out, false), true
	case action == "fail" && ev[1].Str != "":
		return kindError, true
	case (action == "pass" || action == "fail" || action == "skip") && ev[1].Str == "":
		return kindSummary, true
	}
	return kindPlain, true
}

// isFrame reports whether line (t is line trimmed) is a stack frame or a
// bare source location: Go ("pkg.F(args)" and "\tfile.go:12 +0x1d"),
// Python ("File \"x.py\", line 3"), JavaScript and Java ("at f (x.js:1:2)"),
// Rust ("--> src/main.rs:2:5", "  3: crate::f"), pytest ("x.py:5: KeyError")
// or "path/file.ext:12".
func isFrame(line, t string) bool {
	last := t[len(t)-1]
	switch {
	case line[0] == '\t' || line[0] == ' ' && strings.Contains(t, ".go:"):
		// Panics indent frames with a tab, the race detector with spaces.
		return goFrameRe.MatchString(line)
	case strings.HasPrefix(t, "File \""):
		return pyFrameRe.MatchString(line)
	case strings.HasPrefix(t, "at ") && line[0] == ' ':
		return atFrameRe.MatchString(line)
	case strings.HasPrefix(t, "--> "):
		return rustArrowRe.MatchString(line)
	case strings.HasPrefix(t, "created by "):
		return true
	case line[0] != ' ' && line[0] != '\t' && isFileLine(line):
		// "test_orders.py:5: KeyError" (pytest), "x.go:12: msg".
		return true
	case isDigit(t[0]) && line[0] == ' ':
		// A numbered backtrace line: Rust's "  3: crate::func", "  0: 0x55…".
		return numberedFrameRe.MatchString(line)
	case last == ')' && line[0] != ' ':
		// goFuncRe needs a space-free prefix up to the first '('.
		i := strings.IndexByte(t, '(')
		return i > 0 && strings.IndexByte(t[:i], ' ') < 0 && strings.IndexByte(t[:i], '\t') < 0 && goFuncRe.MatchString(line)
	case isDigit(last) && strings.IndexByte(t, ' ') < 0:
		return bareLocRe.MatchString(line)
	}
	return false
}

// isFileLine is fileLineRe without a regexp (a test checks they agree):
// "name.ext:12:" at the start of the line, followed by a space or the end.
func isFileLine(line string) bool {
	if strings.IndexByte(line, ':') < 0 {
		return false
	}
	i := 0
	for i < len(line) && line[i] != ':' && line[i] != ' ' && line[i] != '\t' && line[i] != '\n' && line[i] != '\f' && line[i] != '\r' {
		i++
	}
	if i == 0 || i >= len(line) || line[i] != ':' {
		return false
	}
	// name.ext: the extension is 1–5 word bytes after the last '.', which is
	// not the first byte.
	dot := strings.LastIndexByte(line[:i], '.')
	if dot <= 0 || i-dot-1 < 1 || i-dot-1 > 5 {
		return false
	}
	for k := dot + 1; k < i; k++ {
		if !isWordByte(line[k]) {
			return false
		}
	}
	k := i + 1
	for k < len(line) && isDigit(line[k]) {
		k++
	}
	if k == i+1 || k >= len(line) || line[k] != ':' {
		return false
	}
	return k+1 == len(line) || line[k+1] == ' '
}

// diagStart returns the index of the message in a compiler or linter
// diagnostic "path:line:col: message" (or "path:line:col message"), or -1
// when line is not one.
func diagStart(line string) int {
	if strings.IndexByte(line, ':') < 0 {
		return -1
	}
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	j := i
	for j < len(line) && line[j] != ':' && line[j] != ' ' && line[j] != '\t' {
		j++
	}
	if j == i || j >= len(line) || line[j] != ':' {
		return -1
	}
	k := j + 1
	for n := 0; n < 2; n++ {
		d := k
		for k < len(line) && isDigit(line[k]) {
			k++
		}
		if k == d {
			return -1
		}
		if n == 0 {
			if k >= len(line) || line[k] != ':' {
				return -1
			}
			k++
		}
	}
	if k < len(line) && line[k] == ':' {
		k++
	}
	if k >= len(line) || line[k] != ' ' {
		return -1
	}
	return k + 1
}

// Library frames: the language runtime and installed dependencies, as
// literal path parts and, for the rest, regexps behind a literal hint.
var (
	libraryParts = []string{"/usr/go/src/", "/usr/local/go/src/", "/usr/lib/go/src/", "/usr/local/lib/go/src/",
		"/go/pkg/mod/", "node_modules/", "<frozen ", "/site-packages/", "/dist-packages/", "/rustc/", "/.cargo/registry/", "/.rustup/"}
	libraryPatterns = []struct {
		hint string // a substring of every match
		re   *lazyRE
	}{
		{"node:internal", lazyCompile(`\bnode:internal\b`)},
		{"/lib/python", lazyCompile(`/lib/python\d`)},
		{"_testmain.go:", lazyCompile(`\b_testmain\.go:`)},
		{"at ", lazyCompile(`^\s*at (?:java|javax|jdk|sun|kotlin|scala)\.`)},
		{".", lazyCompile(`^(?:runtime|testing|reflect|internal/\w+)\.`)},
	}
)

// isLibraryFrame reports whether a frame line points into a language
// runtime or an installed dependency rather than the user's code.
func isLibraryFrame(line string) bool {
	for _, p := range libraryParts {
		if strings.Contains(line, p) {
			return true
		}
	}
	for _, p := range libraryPatterns {
		if strings.Contains(line, p.hint) && p.re.MatchString(line) {
			return true
		}
	}
	return false
}

// dataCommands print data on stdout: what they print is content to rank,
// never diagnostics to keep. Their stderr is still read for diagnostics.
var dataCommands = map[string]bool{
	"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true, "git-grep": true,
	"find": true, "fd": true, "fdfind": true, "locate": true, "ls": true, "tree": true, "du": true, "df": true,
	"cat": true, "bat": true, "head": true, "tail": true, "less": true, "more": true, "sed": true, "awk": true,
	"cut": true, "sort": true, "uniq": true, "wc": true, "jq": true, "yq": true, "xxd": true, "hexdump": true,
	"od": true, "strings": true, "nl": true, "column": true, "tr": true, "diff": true, "env": true, "printenv": true,
	"ps": true, "echo": true, "printf": true, "history": true,
}

// dataGitCommands are git subcommands whose stdout is data.
var dataGitCommands = map[string]bool{
	"log": true, "show": true, "diff": true, "blame": true, "grep": true, "ls-files": true, "ls-tree": true,
	"shortlog": true, "reflog": true, "branch": true, "tag": true, "cat-file": true, "rev-list": true,
}

// looksLikeLog reports whether text reads as a log: of its first 64
// non-blank lines (within 32 KiB), at least 60% carry a timestamp in their
// first 48 bytes (after Normalize: "<time>") or open with a level word
// ("INFO", "WARN", "level=error", "[ERROR]", `{"level":`). A log read
// with cat, tail or grep is still a log, and its errors and unusual lines
// matter as in any output; a data listing's do not (see isDataCommand).
func looksLikeLog(text string) bool {
	text = text[:min(len(text), 32<<10)]
	n, logLike := 0, 0
	for l := range strings.SplitSeq(text, "\n") {
		l = Normalize(cleanLine(l))
		if strings.TrimSpace(l) == "" {
			continue
		}
		n++
		if i := strings.Index(l, phTime); i >= 0 && i < 48 || opensWithLevel(l) {
			logLike++
		}
		if n == 64 {
			break
		}
	}
	return n > 0 && logLike*10 >= n*6
}

// logLevels are the level words of common log formats, upper case.
var logLevels = []string{"TRACE", "DEBUG", "INFO", "NOTICE", "WARN", "WARNING", "ERROR", "ERR", "CRITICAL", "FATAL", "PANIC"}

// opensWithLevel reports whether a line starts with a log level: "INFO
// ...", "[WARN] ...", "level=error ...", `{"level":"info",...}` (JSON
// lines with a level key first or second).
func opensWithLevel(l string) bool {
	t := strings.TrimLeft(l, " \t[")
	if strings.HasPrefix(t, "level=") || strings.HasPrefix(t, "lvl=") {
		return true
	}
	if strings.HasPrefix(t, "{") {
		head := t[:min(len(t), 80)]
		return strings.Contains(head, `"level":`) || strings.Contains(head, `"lvl":`) || strings.Contains(head, `"severity":`)
	}
	for _, w := range logLevels {
		if len(t) > len(w) && strings.EqualFold(t[:len(w)], w) && !isWordByte(t[len(w)]) {
			return true
		}
	}
	return false
}

// isDataCommand reports whether the stdout of a shell command line is data:
// the command that writes the final stdout is a viewer, search or listing
// tool. That command is the last stage of the last pipeline (after env
// assignments, wrappers such as sudo, time, command, and xargs), unless
// that stage only filters its standard input (`| cat`, `| tail -n 50`,
// `| grep FAIL`, `| tee log`, `| sort`: a filter with no file operand),
// whose lines are then the previous stage's: `go test ./... | cat` prints
// test results, which are classified, and `cat notes.txt | grep x` prints
// a file's lines, which are data.
func isDataCommand(command string) bool {
	// Every pipeline writes to stdout: the output is data when all that
	// write more than a line or two are data tools (`make -k; echo
	// "exit=$?"` is make's output), or, when only such short writers run,
	// when one of them is (`echo $(git diff)`).
	data, other, quiet := false, false, false
	for _, stages := range shell.Pipelines(command) {
		k := len(stages) - 1
		for k > 0 && isStdinFilter(programWords(stages[k])) {
			k--
		}
		words := programWords(stages[k])
		switch {
		case len(words) == 0:
		case quietCommands[words[0]]:
			quiet = quiet || writerIsData(words)
		case writerIsData(words):
			data = true
		default:
			other = true
		}
	}
	if data || other {
		return data && !other
	}
	return quiet
}

// measuringCommands list things with their measures, one per line: sizes
// (ls -l, du, df), a process's CPU and memory (ps, top -b). Their data
// listings get field outliers (markAnomalies).
var measuringCommands = map[string]bool{"ls": true, "du": true, "df": true, "ps": true, "top": true, "free": true, "wc": true}

// measuresThings reports whether a pipeline of command writes its stdout
// with one of measuringCommands or git's --stat or --numstat (trailing
// stdin filters such as sort or head skipped, as isDataCommand does).
func measuresThings(command string) bool {
	for _, stages := range shell.Pipelines(command) {
		k := len(stages) - 1
		for k > 0 && isStdinFilter(programWords(stages[k])) {
			k--
		}
		words := programWords(stages[k])
		if len(words) > 0 && (measuringCommands[words[0]] || words[0] == "git" && slices.ContainsFunc(words, isStatFlag)) {
			return true
		}
	}
	return false
}

// isStatFlag reports whether w asks git for a diffstat: --stat,
// --stat=WIDTH, --numstat.
func isStatFlag(w string) bool {
	return w == "--stat" || strings.HasPrefix(w, "--stat=") || w == "--numstat"
}

// writerIsData reports whether the command words (programWords of the
// stage that writes a pipeline's stdout) name a data tool.
func writerIsData(words []string) bool {
	name := strings.Trim(words[0], `"'()`)
	if name == "git" {
		for i := 1; i < len(words); i++ {
			w := words[i]
			if w == "-C" || w == "-c" || w == "--git-dir" || w == "--work-tree" || w == "--namespace" {
				i++ // the option's argument
				continue
			}
			if strings.HasPrefix(w, "-") {
				continue
			}
			return dataGitCommands[w]
		}
		return false
	}
	if subs, ok := dataSubcommands[name]; ok {
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") {
				return subs[w]
			}
		}
		return false
	}
	return dataCommands[name]
}

// dataSubcommands are, per tool, the subcommands that list things: a
// package manager's installed packages, a container engine's containers,
// a cluster's resources. Their lines are data: a table with a header that
// must stay, not a run whose rare lines matter.
var dataSubcommands = map[string]map[string]bool{
	"pip": {"list": true, "freeze": true}, "pip3": {"list": true, "freeze": true},
	"npm": {"ls": true, "list": true}, "pnpm": {"ls": true, "list": true}, "yarn": {"list": true},
	"cargo": {"tree": true}, "go": {"list": true}, "docker": {"ps": true, "images": true},
	"kubectl": {"get": true}, "brew": {"list": true}, "apt": {"list": true},
}

// programWords is commandWords of a stage, with xargs and its options
// stripped too: `xargs -0 cat` runs cat.
func programWords(stage []string) []string {
	words := commandWords(stage)
	if len(words) > 0 && words[0] == "xargs" {
		i := 1
		for i < len(words) && strings.HasPrefix(words[i], "-") {
			switch words[i] {
			case "-I", "-L", "-n", "-P", "-d", "-E", "-s", "-a":
				i++ // the option's argument
			}
			i++
		}
		words = commandWords(words[min(i, len(words)):])
	}
	return words
}

// filterValueOptions are, per stdin filter, the options that take the next
// word as their value; filterOperands is how many leading operands are not
// files (grep's pattern, tr's sets).
var (
	filterValueOptions = map[string]string{
		"head": "-n -c", "tail": "-n -c -s --pid", "grep": "-e -f -m -A -B -C --color", "egrep": "-e -f -m -A -B -C",
		"fgrep": "-e -f -m -A -B -C", "rg": "-e -f -m -A -B -C -g -t -T", "sort": "-k -t -o -S -T", "uniq": "-f -s -w",
		"cut": "-d -f -c -b", "column": "-s -c -o -t", "nl": "-w -s -b -v -i", "cat": "", "tee": "", "less": "", "more": "", "tr": "",
	}
	filterOperands = map[string]int{"grep": 1, "egrep": 1, "fgrep": 1, "rg": 1, "tr": 2}
)

// isStdinFilter reports whether words (programWords of a stage) run a
// filter of standard input: one of filterValueOptions with no file
// operand ("-" names standard input). tee's operands are files it writes,
// so it is always one.
func isStdinFilter(words []string) bool {
	if len(words) == 0 {
		return false
	}
	name := words[0]
	valueOpts, ok := filterValueOptions[name]
	if !ok {
		return false
	}
	if name == "tee" {
		return true
	}
	skip := filterOperands[name]
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-" || w == "--":
		case strings.HasPrefix(w, "-") && len(w) > 1:
			if (name == "grep" || name == "egrep" || name == "fgrep" || name == "rg") && (w == "-e" || w == "-f" || strings.HasPrefix(w, "--regexp") || strings.HasPrefix(w, "--file")) {
				skip = 0 // the pattern is an option's value, not an operand
			}
			if strings.Contains(" "+valueOpts+" ", " "+w+" ") {
				i++
			}
		case (name == "head" || name == "tail") && strings.HasPrefix(w, "+"):
			// tail +5: a line number
		case skip > 0:
			skip--
		default:
			return false // a file operand
		}
	}
	return true
}
