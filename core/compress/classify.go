package compress

import (
	"path"
	"regexp"
	"strings"
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
)

// Line patterns. Only the anchored ones run on every line; the others run
// behind cheap necessary-condition checks (see classify), so classifying a
// 1 MB output takes milliseconds.
var (
	// Markers that start a failure line: ✗ test, pytest's "E   …", mocha's
	// "1) suite", FAILED/FAIL/not ok (TAP), "***" (make).
	errorMarkRe = regexp.MustCompile(`^\s*(?:[✗✖✘×❌●💥]|E\s{2,}\S|\d+\) \S|FAILED\b|FAIL\b|not ok\b|\*\*\*)`)
	// Python/Java/JS exception lines: "KeyError: 'x'", "java.lang.IllegalStateException: …".
	exceptionRe = regexp.MustCompile(`^\s*(?:[\w.$]+\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Fault|Failure)\b(?:\s*\[[\w_]+\])?(?::|$)`)
	// A compiler or linter diagnostic: path:line:col: message.
	diagRe = regexp.MustCompile(`^\s*[^\s:]+:\d+:\d+:? `)
	// Go test log lines printed by t.Log/t.Error: "    calc_test.go:36: msg".
	goTestLogRe = regexp.MustCompile(`^\s+\w[\w.-]*_test\.go:\d+: `)
	// Summary and verdict lines of common tools.
	summaryRe = regexp.MustCompile(`(?i)^\s*(?:ok|fail|pass|passed|failed|success|succeeded|done|finished|built|compiled|build successful|build failed)\b|` +
		`\b\d+ (?:passed|failed|passing|failing|pending|skipped|ignored|errors?|warnings?|tests?|examples?|specs?|suites?|files? changed|insertions?|deletions?|packages?|upgraded|newly installed|to remove|not upgraded|vulnerabilit(?:y|ies)|problems?|issues?|matches|checks?)\b|` +
		`^\s*(?:test result|tests?|test suites|snapshots|time|ran \d+ tests?|collected \d+ items?|added \d+|removed \d+|changed \d+|audited \d+|up to date|fetched|summary)\b|` +
		`^\s*[=_-]{3,}.*\b(?:passed|failed|error|errors|in <dur>)\b.*[=_-]{3,}\s*$`)
	// Stack frames and source locations, one pattern per language, each
	// behind a prefix check in isFrame.
	goFrameRe   = regexp.MustCompile(`^\t\S+\.\w+:\d+(?:\s+\+0x[0-9a-f]+)?$`)
	goFuncRe    = regexp.MustCompile(`^[\w./*()-]+\([^)]*\)$`)
	pyFrameRe   = regexp.MustCompile(`^\s*File "[^"]+", line \d+`)
	atFrameRe   = regexp.MustCompile(`^\s+at \S.*(?::\d+(?::\d+)?\)?|\(native\)|\(<anonymous>\))$`)
	rustArrowRe = regexp.MustCompile(`^\s*--> \S+:\d+`)
	bareLocRe   = regexp.MustCompile(`^\S+\.\w{1,5}:\d+(?::\d+)?$`)
	// Lines that only quote source under a diagnostic: "   12 |  code", "      |  ^~~".
	excerptRe = regexp.MustCompile(`^\s*\d*\s+\|(?:\s|$)|^\s*[~^]+[~^\s|]*$`)
	// Library frames: the language runtime and installed dependencies.
	libraryFrameRe = regexp.MustCompile(`/usr/(?:local/)?(?:lib/)?go/src/|/go/pkg/mod/|\bnode:internal\b|node_modules/|<frozen |/site-packages/|/dist-packages/|/lib/python\d|/rustc/|/\.cargo/registry/|/\.rustup/|^\s*at (?:java|javax|jdk|sun|kotlin|scala)\.|^(?:runtime|testing|reflect|internal/\w+)\.`)
)

// Vocabulary of errors and warnings, matched on the lowercased words of a
// line after path-like tokens are dropped (so "errors.go" or
// ".../testdata/fail/" in a file list is not an error).
var (
	errorWords = wordSet(`error errors fatal fail fails failed failure failures failing panic panicked panics
		exception traceback abort aborted assert assertion assertionerror denied refused cannot undefined
		undeclared unresolved timeout killed unreachable mismatched invalid illegal unexpected overflow
		violation segfault`)
	errorPhrases = wordSet(`could_not unable_to not_found no_such segmentation_fault core_dumped timed_out
		out_of not_used not_declared can_t couldn_t npm_err`)
	warningWords = wordSet(`warn warning warnings deprecated deprecation`)
	summaryWords = wordSet(`ok fail pass passed failed passing failing pending skipped ignored error errors
		warning warnings test tests success succeeded done finished built compiled build examples specs
		suites changed insertions deletions packages upgraded installed vulnerability vulnerabilities
		problems issues matches checks result suites snapshots time ran collected added removed audited
		up fetched summary`)
	exceptionSuffixes = []string{"error", "exception", "exit", "interrupt", "fault", "failure"}
)

func wordSet(list string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(list) {
		m[strings.ReplaceAll(w, "_", " ")] = true
	}
	return m
}

// lineWords is what classify needs from a line's words.
type lineWords struct {
	err, warn, summary, exception bool
}

// scanWords lowercases the ASCII words of line, skipping path-like
// tokens, and looks them and their bigrams up in the vocabularies. Non-ASCII
// letters end a word.
func scanWords(line string) lineWords {
	var lw lineWords
	var prev string
	for _, tok := range strings.Fields(line) {
		if strings.ContainsAny(tok, "/\\") || looksLikeFile(tok) {
			prev = ""
			continue
		}
		for w := range asciiWords(tok) {
			if errorWords[w] || prev != "" && errorPhrases[prev+" "+w] {
				lw.err = true
			}
			if warningWords[w] {
				lw.warn = true
			}
			if summaryWords[w] {
				lw.summary = true
			}
			if !lw.exception && len(w) > 4 {
				for _, suf := range exceptionSuffixes {
					if strings.HasSuffix(w, suf) {
						lw.exception = true
						break
					}
				}
			}
			prev = w
		}
	}
	return lw
}

// asciiWords yields the lowercased runs of ASCII letters and digits of tok.
func asciiWords(tok string) func(func(string) bool) {
	return func(yield func(string) bool) {
		start := -1
		for i := 0; i <= len(tok); i++ {
			alnum := i < len(tok) && (tok[i] >= 'a' && tok[i] <= 'z' || tok[i] >= 'A' && tok[i] <= 'Z' || isDigit(tok[i]))
			if alnum && start < 0 {
				start = i
			}
			if !alnum && start >= 0 {
				if !yield(strings.ToLower(tok[start:i])) {
					return
				}
				start = -1
			}
		}
	}
}

func looksLikeFile(w string) bool {
	w = strings.Trim(w, "‘’'\"`:,;()[]")
	i := strings.LastIndexByte(w, '.')
	if i <= 0 || i == len(w)-1 {
		return false
	}
	ext := w[i+1:]
	if len(ext) > 5 {
		return false
	}
	for _, c := range ext {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
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
	lw := scanWords(line)
	if strings.IndexByte(line, ':') >= 0 && diagRe.MatchString(line) {
		if lw.warn && !scanWords(diagMessage(line)).err {
			return kindWarning
		}
		if strings.Contains(line, ": note: ") {
			return kindExcerpt
		}
		return kindError
	}
	if strings.ContainsAny(t, "|^~") && excerptRe.MatchString(line) {
		return kindExcerpt
	}
	if isFrame(line, t) {
		return kindFrame
	}
	if errorMarkRe.MatchString(line) || lw.exception && exceptionRe.MatchString(line) ||
		strings.Contains(line, "_test.go:") && goTestLogRe.MatchString(line) {
		return kindError
	}
	if lw.summary && summaryRe.MatchString(severityText(line)) {
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

// isFrame reports whether line (t is line trimmed) is a stack frame or a
// bare source location: Go ("pkg.F(args)" and "\tfile.go:12 +0x1d"),
// Python ("File \"x.py\", line 3"), JavaScript and Java ("at f (x.js:1:2)"),
// Rust ("--> src/main.rs:2:5") or "path/file.ext:12".
func isFrame(line, t string) bool {
	last := t[len(t)-1]
	switch {
	case line[0] == '\t':
		return goFrameRe.MatchString(line)
	case strings.HasPrefix(t, "File \""):
		return pyFrameRe.MatchString(line)
	case strings.HasPrefix(t, "at ") && line[0] == ' ':
		return atFrameRe.MatchString(line)
	case strings.HasPrefix(t, "--> "):
		return rustArrowRe.MatchString(line)
	case strings.HasPrefix(t, "created by "):
		return true
	case last == ')' && line[0] != ' ':
		return goFuncRe.MatchString(line)
	case isDigit(last) && strings.IndexByte(t, ' ') < 0:
		return bareLocRe.MatchString(line)
	}
	return false
}

// severityText removes path-like tokens (anything with '/', '\' or a file
// extension), as scanWords does.
func severityText(line string) string {
	if !strings.ContainsAny(line, "/\\.") {
		return line
	}
	f := strings.Fields(line)
	out := f[:0:0]
	for _, w := range f {
		if strings.ContainsAny(w, "/\\") || looksLikeFile(w) {
			continue
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// diagMessage is the message part of "path:line:col: message".
func diagMessage(line string) string {
	loc := diagRe.FindStringIndex(line)
	if loc == nil {
		return line
	}
	return line[loc[1]:]
}

// isLibraryFrame reports whether a frame line points into a language
// runtime or an installed dependency rather than the user's code.
func isLibraryFrame(line string) bool {
	return libraryFrameRe.MatchString(line)
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

// isDataCommand reports whether the stdout of a shell command line is data:
// the command that writes the final stdout (the last stage of the last
// pipeline, after env assignments and wrappers such as sudo, time, xargs,
// command) is a viewer, search or listing tool.
func isDataCommand(command string) bool {
	cmd := command
	for _, sep := range []string{"&&", "||", ";", "|", "\n"} {
		if i := strings.LastIndex(cmd, sep); i >= 0 {
			if rest := strings.TrimSpace(cmd[i+len(sep):]); rest != "" {
				cmd = rest
			}
		}
	}
	words := strings.Fields(cmd)
	for len(words) > 0 {
		w := words[0]
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-"):
			words = words[1:]
			continue
		case w == "sudo" || w == "time" || w == "command" || w == "exec" || w == "nice" || w == "xargs" || w == "env" && len(words) > 1 && strings.Contains(words[1], "="):
			words = words[1:]
			continue
		}
		break
	}
	if len(words) == 0 {
		return false
	}
	name := path.Base(strings.Trim(words[0], `"'()`))
	if name == "git" {
		for _, w := range words[1:] {
			if strings.HasPrefix(w, "-") {
				continue
			}
			return dataGitCommands[w]
		}
		return false
	}
	return dataCommands[name]
}
