package recall

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vaultctx/vaultctx/core/internal/textan"
)

// Reasons PromptSkip gives for not searching the vault for a prompt.
const (
	// SkipSlash is a Claude Code slash command such as "/compact" (see
	// IsSlashCommand).
	SkipSlash = "slash command"
	// SkipClient is text the client wrote, not the user: a
	// <task-notification> (Claude Code 2.1.332 sends one as the prompt of a
	// UserPromptSubmit when a background agent or command finishes), a
	// <command-name>/<command-message>/<local-command-stdout> wrapper of a
	// local command, a <system-reminder>, a loop sentinel such as
	// <<autonomous-loop-dynamic>>, or a "[SYSTEM NOTIFICATION - NOT USER
	// INPUT]" frame (see IsClientMessage).
	SkipClient = "client-generated message"
	// SkipAck is an acknowledgement: "ok", "thanks", "yes do it",
	// "continue", "lgtm", "looks good, ship it" (see IsAcknowledgement).
	SkipAck = "acknowledgement"
	// SkipLocator is a prompt that is only paths or URLs (see IsLocator).
	SkipLocator = "only a path or URL"
	// SkipPasted is pasted output with no question: a stack trace or log
	// (see IsPastedOutput).
	SkipPasted = "pasted output without a question"
)

// PromptSkip returns why the prompt hook does not search the vault for
// prompt, one of the Skip* reasons, or "" when prompt may be a question to
// the vault and is searched (the relevance floor then decides). The checks
// run in the order IsSlashCommand, IsClientMessage, IsAcknowledgement,
// IsLocator, IsPastedOutput; the first that holds gives the reason. It is a
// pure function of prompt, reads at most its first MaxQueryBytes bytes for
// the pasted-output check, and never fails.
func PromptSkip(prompt string) string {
	switch {
	case IsSlashCommand(prompt):
		return SkipSlash
	case IsClientMessage(prompt):
		return SkipClient
	case IsAcknowledgement(prompt):
		return SkipAck
	case IsLocator(prompt):
		return SkipLocator
	case IsPastedOutput(capQuery(prompt)):
		return SkipPasted
	}
	return ""
}

// IsSlashCommand reports whether prompt is a Claude Code slash command such
// as "/model", "/clear foo" or "/plugin:cmd": after leading whitespace it
// starts with "/" and a lowercase ASCII letter, and its first word holds
// only lowercase letters, digits, '-', '_' and ':' and does not end with
// '-'. Command names are lowercase; MSVC options are not all so
// ("/Zi vs /Z7 - whats the difference" is a question, and so is
// "/permissive- breaks my build"), and "/usr/bin is slow" is about a path.
//
// Claude Code 2.1.332 runs its built-in commands (/compact, /clear,
// /context, /cost) without a UserPromptSubmit; it sends the hook a custom
// command's line as typed ("/notes wide strings"), and an unknown one
// ("/Zi ...") to the model as text.
func IsSlashCommand(prompt string) bool {
	p := strings.TrimLeftFunc(prompt, unicode.IsSpace)
	if len(p) < 2 || p[0] != '/' {
		return false
	}
	first := p[1:]
	if i := strings.IndexFunc(first, unicode.IsSpace); i >= 0 {
		first = first[:i]
	}
	if first == "" || first[0] < 'a' || first[0] > 'z' || first[len(first)-1] == '-' {
		return false
	}
	for i := 0; i < len(first); i++ {
		if c := first[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == ':') {
			return false
		}
	}
	return true
}

// clientTags are the elements Claude Code wraps text it generates in when
// that text is sent as a prompt or beside one: found in the 2.1.332 binary
// and, for task-notification, seen as a UserPromptSubmit prompt
// (docs/claude-code.md).
var clientTags = []string{
	"task-notification", "command-name", "command-message", "command-args", "command-contents",
	"local-command-stdout", "local-command-stderr", "local-command-caveat",
	"bash-input", "bash-stdout", "bash-stderr", "system-reminder", "user-prompt-submit-hook",
	"user-memory-input", "teammate-message", "cross-session-message", "webhook-payload",
	"skill-watcher-idle-wake", "channel",
}

// IsClientMessage reports whether prompt, after leading whitespace, is text
// Claude Code generated rather than a user typed:
//   - it opens an element of a known client tag (task-notification,
//     command-name, command-message, local-command-stdout, bash-input,
//     system-reminder, ...), as "<tag>" or "<tag " followed by attributes;
//   - or it opens any element whose name is lowercase words joined by "-"
//     (the client's style, e.g. <future-notice>) and holds that element's
//     closing tag, so an unknown wrapper of a later client version is
//     caught too;
//   - or it is a loop sentinel "<<autonomous-loop>>" or
//     "<<autonomous-loop-dynamic>>", or starts with "[SYSTEM NOTIFICATION -
//     NOT USER INPUT]".
//
// A prompt that only mentions such a tag later on ("why does
// <task-notification> show up in my transcript?") is a user's.
func IsClientMessage(prompt string) bool {
	p := strings.TrimLeftFunc(prompt, unicode.IsSpace)
	switch {
	case strings.HasPrefix(p, "<<autonomous-loop"):
		return true
	case strings.HasPrefix(p, "[SYSTEM NOTIFICATION - NOT USER INPUT]"):
		return true
	case !strings.HasPrefix(p, "<"):
		return false
	}
	name, rest := p[1:], ""
	if end := strings.IndexAny(name, "> \t\r\n"); end >= 0 {
		name, rest = name[:end], name[end:]
	}
	if !kebabName(name) {
		return false
	}
	for _, t := range clientTags {
		if name == t {
			return true
		}
	}
	return strings.Contains(name, "-") && strings.Contains(rest, "</"+name+">")
}

// kebabName reports whether s is one or more runs of ASCII lowercase
// letters joined by single hyphens.
func kebabName(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c == '-' && s[i-1] != '-') {
			return false
		}
	}
	return true
}

// MaxAckTerms is the most terms (textan.Terms) an acknowledgement has.
const MaxAckTerms = 8

// maxAckBytes bounds the prompts IsAcknowledgement looks at: eight words
// and some emoji fit, and a megabyte prompt is not split into terms.
const maxAckBytes = 256

// ackWords are the words of acknowledgements beyond textan's stop words
// and fillers (which already hold "yes", "ok", "thanks", "continue",
// "lgtm", "go", "ahead" ...): approval, refusal and hesitation.
var ackWords = wordSet(`looks look perfect ship merge revert undo stop wait hold hmm hm nah
	awesome excellent amazing brilliant wonderful neat sweet love works worked fixed approved
	approve sgtm ack tysm cheers yay wow oops uh um ah oh sorry cancel nevermind never mind time one`)

// wordSet returns the set of the space-separated words of s.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// IsAcknowledgement reports whether prompt is a short reply to the agent
// rather than a question: it has 1 to MaxAckTerms terms (textan.Terms:
// letters and digits; punctuation and emoji are ignored) and every one is
// an acknowledgement word ("looks", "perfect", "ship", "revert", "stop",
// "hmm" ...), a stop word or a filler (textan.StopWord, textan.Filler:
// "ok", "thanks", "yes", "do", "it", "continue", "lgtm", "good", "try",
// "again" ...), or a single letter ("y", the "s" of "let's"). "yes do it",
// "looks good, continue", "hmm not quite, try again" and "perfect 👍" are
// acknowledgements; "commit and push" and "run the tests" are not (those
// go to the relevance floor).
func IsAcknowledgement(prompt string) bool {
	if len(prompt) > maxAckBytes {
		return false
	}
	terms := textan.Terms(prompt)
	if len(terms) == 0 || len(terms) > MaxAckTerms {
		return false
	}
	for _, t := range terms {
		if utf8.RuneCountInString(t) > 1 && !ackWords[t] && !textan.StopWord(t) && !textan.Filler(t) {
			return false
		}
	}
	return true
}

// MaxLocators is the most fields a prompt IsLocator accepts.
const MaxLocators = 8

// maxLocatorBytes bounds the prompts IsLocator looks at (eight long URLs).
const maxLocatorBytes = 8 << 10

// IsLocator reports whether prompt is nothing but 1 to MaxLocators paths or
// URLs separated by white space: each field is a URL (a scheme such as
// https:// or file://), a mention "@src/lib/auth.ts", a path holding "/" or
// "\" ("internal/store/store_test.go", "~/projects/x.yml",
// "/var/log/nginx/error.log", "C:\tools"), or a file name with a lowercase
// extension ("store_test.go", "README.md"), any of them with a ":line" or
// ":line:col" suffix ("cmd/vaultd/main.go:88"). A dotted name with a
// capital after the dot ("System.IO.File") is not a file name.
func IsLocator(prompt string) bool {
	if len(prompt) > maxLocatorBytes {
		return false
	}
	fields := strings.Fields(prompt)
	if len(fields) == 0 || len(fields) > MaxLocators {
		return false
	}
	for _, f := range fields {
		if !locatorField(f) {
			return false
		}
	}
	return true
}

// locatorField reports whether one whitespace-free field is a URL, an
// @mention, a path or a file name (see IsLocator).
func locatorField(f string) bool {
	if i := strings.Index(f, "://"); i > 0 && asciiWord(f[:i]) {
		return true
	}
	f = strings.TrimPrefix(f, "@")
	f = strings.TrimRight(f, ",;")
	f = trimLineSuffix(f)
	if f == "" || f == "/" || f == "." {
		return false
	}
	if strings.ContainsAny(f, `/\`) {
		// A path needs a letter or digit in it, so "//" or "\\" alone are
		// not paths.
		return strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
	}
	dot := strings.LastIndexByte(f, '.')
	if dot <= 0 || dot == len(f)-1 || len(f)-dot-1 > 6 {
		return false
	}
	ext := f[dot+1:]
	if ext[0] < 'a' || ext[0] > 'z' {
		return false
	}
	for i := 0; i < len(ext); i++ {
		if c := ext[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// trimLineSuffix removes a trailing ":123" or ":123:45" from f.
func trimLineSuffix(f string) string {
	for range 2 {
		i := strings.LastIndexByte(f, ':')
		if i <= 0 || i == len(f)-1 || !allDigits(f[i+1:]) {
			break
		}
		f = f[:i]
	}
	return f
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func asciiWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return s != ""
}

// MinPastedFrames is the fewest stack-frame or log lines IsPastedOutput
// needs: a three-line PowerShell error record (message, "At line", code)
// stays a question to the vault.
const MinPastedFrames = 3

// IsPastedOutput reports whether prompt is a pasted stack trace or log and
// nothing else: at least 3 non-blank lines, of which at least
// MinPastedFrames and at least half are stack frames or log records, and
// no line that reads as the user's question or request.
//
// A stack frame is a line such as "\tat com.acme.Foo(Foo.java:61)",
// `  File "/app/x.py", line 22, in main` (and the source line Python prints
// under it), "\t/home/dev/app/server.go:42 +0x3a" and the Go call line
// above it, "goroutine 1 [running]:", "Traceback (most recent call
// last):", "stack backtrace:", "Caused by: ...", "... 12 more", or
// "  3: std::rt::lang_start" (a numbered backtrace). A log record starts with a date or time
// ("2026-12-02T02:17:30Z", "12:01:02"), a level ("INFO", "[ERROR]",
// "WARN:") or "npm ERR!". A question line is a non-frame line that ends
// with "?" or starts with a question or request word ("how", "why",
// "what", "can", "fix", "please", "i", "we", "it", ...).
//
// Compiler diagnostics ("parser.cpp(212): warning C4244: ...",
// "./main.go:14:2: declared and not used") are neither frames nor log
// records: a pasted build error is a question the vault may answer, and
// the relevance floor decides.
func IsPastedOutput(prompt string) bool {
	lines, frames := 0, 0
	prevFile := false // the previous line was a Python `File "...", line N` frame
	for line := range strings.SplitSeq(prompt, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		lines++
		frame := stackFrame(line) || logRecord(line)
		if !frame && prevFile && (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")) {
			frame = true // the source line under a Python frame
		}
		prevFile = strings.HasPrefix(strings.TrimSpace(line), `File "`)
		if frame {
			frames++
			continue
		}
		if questionLine(line) {
			return false
		}
	}
	return lines >= 3 && frames >= MinPastedFrames && 2*frames >= lines
}

// stackFrame reports whether line is a line of a stack trace (see
// IsPastedOutput).
func stackFrame(line string) bool {
	t := strings.TrimSpace(line)
	indented := len(t) < len(line)
	switch {
	case strings.HasPrefix(t, "at ") && indented:
		return true // Java, JavaScript, .NET, PowerShell ScriptStackTrace
	case strings.HasPrefix(t, `File "`) && strings.Contains(t, `", line `):
		return true // Python
	case strings.HasPrefix(t, "Traceback (most recent call last)"), t == "stack backtrace:":
		return true // Python, Rust
	case strings.HasPrefix(t, "goroutine ") && strings.HasSuffix(t, "]:"):
		return true // Go
	case strings.HasPrefix(t, "Caused by: "):
		return true // Java
	case strings.HasPrefix(t, "... ") && strings.HasSuffix(t, " more"):
		return true // Java
	case indented && goFileLine(t):
		return true // Go: "\t/path/file.go:42 +0x3a"
	case !indented && goCallLine(t):
		return true // Go: "main.(*Server).Start(0x0, ...)"
	case numberedFrame(t):
		return true // Rust, gdb: "3: std::rt::lang_start" or "#3 0x... in f"
	}
	return false
}

// goFileLine reports whether t is "path.go:N" optionally followed by
// " +0xHEX".
func goFileLine(t string) bool {
	path, _, _ := strings.Cut(t, " ")
	i := strings.LastIndexByte(path, ':')
	return i > 0 && strings.HasSuffix(path[:i], ".go") && allDigits(path[i+1:])
}

// goCallLine reports whether t is a Go stack frame's function line: a
// dotted package path and function name followed by an argument list
// "(...)" at the end and no spaces before it ("main.(*Server).Start(0x0)",
// "net/http.(*conn).serve(0xc000, {0x8a, 0xc0})").
func goCallLine(t string) bool {
	open := strings.IndexByte(t, '(')
	if open <= 0 || !strings.HasSuffix(t, ")") || !strings.Contains(t[:open], ".") || strings.ContainsAny(t[:open], " \t") {
		return false
	}
	if open+1 < len(t) && t[open+1] == '*' {
		// a method on a pointer receiver: main.(*Server).Start(...)
		j := strings.Index(t[open:], ").")
		if j < 0 {
			return false
		}
		rest := t[open+j+2:]
		k := strings.IndexByte(rest, '(')
		return k > 0 && !strings.ContainsAny(rest[:k], " \t")
	}
	return true
}

// numberedFrame reports whether t is "N: name" where name is one word or
// holds "::" or starts with "0x" (a Rust backtrace frame), or "#N 0x..." /
// "#N name" (gdb, lldb).
func numberedFrame(t string) bool {
	if strings.HasPrefix(t, "#") {
		n, rest, ok := strings.Cut(t[1:], " ")
		return ok && allDigits(n) && rest != ""
	}
	n, rest, ok := strings.Cut(t, ": ")
	return ok && allDigits(n) && rest != "" && (strings.Contains(rest, "::") || strings.HasPrefix(rest, "0x") || !strings.ContainsAny(rest, " \t"))
}

// logLevels are the level words a log record may start with.
var logLevels = []string{"TRACE", "DEBUG", "INFO", "NOTICE", "WARN", "WARNING", "ERROR", "ERR", "FATAL", "CRITICAL", "CRIT", "PANIC"}

// logRecord reports whether line starts like a log record: a date or time,
// a level word (bare, bracketed, or followed by ":"), or "npm ERR!" /
// "npm WARN".
func logRecord(line string) bool {
	t := strings.TrimLeft(line, " \t")
	if strings.HasPrefix(t, "npm ERR!") || strings.HasPrefix(t, "npm WARN") {
		return true
	}
	if dateOrTime(strings.TrimLeft(t, "[")) {
		return true
	}
	word := t
	if i := strings.IndexAny(word, " \t"); i >= 0 {
		word = word[:i]
	}
	word = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(word, "["), ":"), "]")
	for _, l := range logLevels {
		if word == l {
			return true
		}
	}
	return false
}

// dateOrTime reports whether s starts with YYYY-MM-DD, YYYY/MM/DD or
// HH:MM:SS.
func dateOrTime(s string) bool {
	digits := func(s string, n int) bool {
		if len(s) < n {
			return false
		}
		return allDigits(s[:n])
	}
	if digits(s, 4) && len(s) >= 10 && (s[4] == '-' || s[4] == '/') && digits(s[5:], 2) && s[7] == s[4] && digits(s[8:], 2) {
		return true
	}
	return digits(s, 2) && len(s) >= 8 && s[2] == ':' && digits(s[3:], 2) && s[5] == ':' && digits(s[6:], 2)
}

// questionStarts are the words a line of a user's own writing typically
// starts with: questions, requests, and the pronouns of "it fails when",
// "we get this", "i tried".
var questionStarts = map[string]bool{
	"how": true, "why": true, "what": true, "whats": true, "what's": true, "where": true, "when": true,
	"which": true, "who": true, "can": true, "could": true, "should": true, "would": true, "is": true,
	"are": true, "does": true, "do": true, "did": true, "fix": true, "explain": true, "help": true,
	"please": true, "pls": true, "any": true, "i": true, "i'm": true, "im": true, "we": true,
	"we're": true, "my": true, "our": true, "it": true, "it's": true, "this": true, "got": true,
	"getting": true, "anyone": true, "idea": true, "ideas": true, "wtf": true, "so": true, "hey": true,
	"hi": true, "also": true, "but": true, "and": true, "tried": true, "after": true, "since": true,
	"only": true, "when's": true, "here's": true, "here": true, "seeing": true, "see": true,
}

// questionLine reports whether line reads as the user's own question or
// request (see IsPastedOutput).
func questionLine(line string) bool {
	t := strings.TrimSpace(line)
	if strings.HasSuffix(t, "?") {
		return true
	}
	first := t
	if i := strings.IndexFunc(first, func(r rune) bool { return unicode.IsSpace(r) || r == ',' }); i >= 0 {
		first = first[:i]
	}
	if first == "" || !utf8.ValidString(first) {
		return false
	}
	return questionStarts[strings.ToLower(first)]
}
