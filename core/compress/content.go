package compress

import (
	"slices"
	"strconv"
	"strings"

	"github.com/vaultctx/vaultctx/core/internal/shell"
)

// Content outputs: the output of cat, head, sed -n, git diff, git show and
// the like is the content of a file or a diff. It is data the agent will
// act on (edit the file, review the change), so no line inside it is ever
// picked or dropped for being uninteresting, and no volatile token in it
// is anything but content. Such an output passes through whole when Claude
// Code handed it to the hook whole (ContentPassBytes); a larger one is cut
// only between regions: between hunks of a diff, keeping every file and
// hunk header, or between the lines of a file, with a marker that says
// exactly which lines were left out and the command that reads them.

// ContentPassBytes is the size (stdout plus stderr, bytes) up to which a
// content output passes through untouched: 30,000, the size up to which
// Claude Code hands a Bash result to the model whole (its default
// BASH_MAX_OUTPUT_LENGTH). Past it Claude Code itself would cut the output.
const ContentPassBytes = 30000

// contentKind tells what a content output mirrors.
type contentKind uint8

const (
	contentNone        contentKind = iota // not content: condensed as command output
	contentFile                           // the lines of a file (cat, head, sed -n, nl, jq of a file)
	contentDiff                           // a diff (git diff, git show, git log -p, diff -u)
	contentDiffTool                       // diff(1)'s output: a unified diff, or the lines of another format (contentOf decides)
	contentClassicDiff                    // diff(1)'s normal ("15c15", "< a", "---", "> b") or context ("***************") format
)

// contentSource describes a content output: its kind and, for the lines of
// one file, the file's path as the command named it and the file line that
// the output's first line is (0 when unknown, as for tail).
type contentSource struct {
	kind      contentKind
	path      string
	firstLine int
	annotated bool // git blame: every line carries a date by design, and is still the file's
}

// fileViewers print (part of) the files they are given, line for line.
var fileViewers = map[string]bool{
	"cat": true, "bat": true, "batcat": true, "nl": true, "less": true, "more": true, "head": true,
	"tail": true, "tac": true, "sed": true, "jq": true, "yq": true, "xxd": true, "view": true,
	"expand": true, "unexpand": true, "fold": true, "iconv": true, "dos2unix": true, "cut": true,
}

// contentFilters pass a content output on line for line, in part or
// changed within lines: a pipeline such as "git diff | head -200" or
// "cat f | tr -d '\r'" is still content.
var contentFilters = map[string]bool{"head": true, "tail": true, "sed": true, "cat": true, "less": true, "more": true, "nl": true,
	"tr": true, "expand": true, "unexpand": true, "cut": true, "fold": true, "iconv": true, "dos2unix": true, "jq": true, "yq": true}

// quietCommands print a line or nothing: "cat f; echo done", "cat f ||
// echo missing" and "sed -n 1,9p f && go version" are still the file, and
// "make -k; echo exit=$?" is still make's output (isDataCommand).
var quietCommands = map[string]bool{"echo": true, "printf": true, "true": true, "false": true, ":": true, "exit": true,
	"test": true, "[": true, "pwd": true, "date": true, "cd": true, "export": true, "set": true, "sleep": true,
	"pushd": true, "popd": true, "unset": true, "mkdir": true, "rm": true, "cp": true, "mv": true, "touch": true,
	"source": true, ".": true, "wait": true, "trap": true, "read": true}

// loopWords open or close a compound command without running one: in
// "for f in a b; do cat $f; done" the cat is the command that prints.
var loopWords = map[string]bool{"for": true, "done": true, "fi": true, "esac": true, "}": true, "select": true}

// contentOf decides whether req's stdout is content (see contentKind), by
// the command that writes it (the first stage of the last pipeline, every
// later stage a contentFilters one; env assignments, wrappers and "cd … &&"
// prefixes skipped) and by its shape: a diff needs file or hunk headers,
// and any output with them is a diff. A log read with cat or tail is not
// content (readsAsLogFile, or a path such as app.log or /var/log/…): its
// unusual lines are what matters. Neither is binary output.
func contentOf(req Request) contentSource {
	out := req.Stdout
	if out == "" || looksBinary(out) {
		return contentSource{} // binary bytes are summarised as such
	}
	src := contentByCommand(req.Command)
	diffShape := hasDiffShape(out)
	switch {
	case src.kind == contentDiffTool && diffShape:
		src.kind = contentDiff
	case src.kind == contentDiffTool && hasClassicDiffShape(out):
		src.kind = contentClassicDiff
	case src.kind == contentDiffTool:
		src.kind = contentFile // "1c1", "< a", "---", "> b": whole lines, no hunk headers
	case src.kind == contentDiff && !diffShape:
		src = contentSource{} // git diff --stat, git log without -p
	case src.kind == contentNone && diffShape:
		src = contentSource{kind: contentDiff}
	case src.kind == contentNone && isNumberedListing(out):
		src = contentSource{kind: contentFile} // cat -n, nl, a Read-style "  12→" listing
	case src.kind == contentNone && req.MirrorsFile:
		src = contentSource{kind: contentFile} // checked against the file by the caller
	}
	if src.kind == contentFile && !src.annotated && (isLogPath(src.path) || readsAsLogFile(out)) {
		return contentSource{}
	}
	return src
}

// readsAsLogFile reports whether the lines of a file read as a log's
// records rather than as data that holds dates: of its first 64 non-blank
// lines (within 32 KiB), at least 60% open with a timestamp (after
// Normalize; "[", a syslog "<PRI>" or a one-letter glog level before it
// allowed) or with a level word (opensWithLevel, JSON records with a
// level key among them), and the lines are not a table of comma-separated
// fields (a CSV export's created_at column). A
// Go source file with dates in its literals, git blame's dated lines and
// JSON records with a "ts" key first are content; "2026-12-02T10:00:01Z
// INFO …" lines are a log.
func readsAsLogFile(text string) bool {
	text = text[:min(len(text), 32<<10)]
	n, logLike, csvLike := 0, 0, 0
	commas := -1
	for l := range strings.SplitSeq(text, "\n") {
		l = Normalize(cleanLine(l))
		if strings.TrimSpace(l) == "" {
			continue
		}
		n++
		if opensWithTime(l) || opensWithLevel(l) {
			logLike++
		}
		if c := strings.Count(l, ","); c >= 2 && l[0] != '{' && (commas < 0 || c == commas) {
			commas = c
			csvLike++
		}
		if n == 64 {
			break
		}
	}
	return n > 0 && logLike*10 >= n*6 && csvLike*10 < n*8
}

// opensWithTime reports whether a normalised line starts with a timestamp
// ("<time> …"), after "[", a syslog priority ("<134>") or a glog level
// letter and date ("E1202 <time> …").
func opensWithTime(l string) bool {
	t := strings.TrimLeft(l, " \t[")
	if strings.HasPrefix(t, "<") && !strings.HasPrefix(t, phTime) {
		if i := strings.IndexByte(t, '>'); i > 1 && i <= 4 && strings.Trim(t[1:i], "0123456789") == "" {
			t = t[i+1:]
		}
	}
	if len(t) > 6 && strings.IndexByte("IWEF", t[0]) >= 0 && strings.Trim(t[1:5], "0123456789") == "" && t[5] == ' ' {
		t = t[6:]
	}
	return strings.HasPrefix(t, phTime)
}

// contentByCommand is contentOf's reading of the command line alone. The
// output is content when a pipeline that prints is (contentOfPipeline),
// and every other one that prints is quiet (echo, cd …) or lists data
// (ls, wc, git status: "cat f && git status --short" is still the file);
// the file's path is kept only when that pipeline is the whole line.
func contentByCommand(command string) contentSource {
	pipes := shell.PipelinesWithRedirections(command)
	var src contentSource
	found, mixed := false, false
	for _, p := range pipes {
		w := commandWords(shell.DropRedirections(slices.Clone(p[0])))
		if len(p) == 1 && (len(w) == 0 || quietCommands[w[0]] || loopWords[w[0]] || w[0] == "go" && len(w) > 1 && w[1] == "version") {
			continue
		}
		if c := contentOfPipeline(p, 0); c.kind != contentNone && !found {
			src, found = c, true
			continue
		}
		if len(w) > 0 && (writerIsData(w) || w[0] == "git" && slices.Contains(w, "status")) {
			mixed = true
			continue
		}
		return contentSource{} // a command of its own (go test, make) prints too
	}
	if !found {
		return contentSource{}
	}
	if mixed || len(pipes) > 1 {
		src.path, src.firstLine = "", 0 // after "cd x &&" the path is not the agent's
	}
	return src
}

// shells run the script given after -c.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true}

// maxShellDepth bounds "bash -c 'sh -c …'" nesting in contentOfPipeline.
const maxShellDepth = 3

// contentOfPipeline is what one pipeline's stages (words with their
// redirections, shell.PipelinesWithRedirections) print: content when its
// writer is a file viewer given files (as operands or as its standard
// input, "cat < f", "tr -d '\r' < f"), git diff/show and the like, or
// diff, and every later stage passes content on (contentFilters), or when
// it runs such a line in "bash -c".
func contentOfPipeline(raw [][]string, depth int) contentSource {
	stages := make([][]string, len(raw))
	for i, st := range raw {
		stages[i] = shell.DropRedirections(slices.Clone(st))
	}
	// The stage that writes the content: the first, or a later one where
	// xargs hands a file viewer its files ("find … | xargs cat").
	writer := 0
	for i := len(stages) - 1; i > 0; i-- {
		if w := commandWords(stages[i]); len(w) > 0 && w[0] == "xargs" {
			if v := programWords(stages[i]); len(v) > 0 && fileViewers[v[0]] {
				writer = i
			}
			break
		}
	}
	for _, st := range stages[writer+1:] {
		if w := commandWords(st); len(w) == 0 || !contentFilters[w[0]] && !isJSONTool(w) {
			return contentSource{}
		}
	}
	if writer > 0 {
		return contentSource{kind: contentFile} // the files are not named on the line
	}
	w := commandWords(stages[0])
	if len(w) == 0 {
		return contentSource{}
	}
	piped := len(stages) > 1
	switch prog := w[0]; {
	case shells[prog] && len(w) >= 3 && w[1] == "-c" && depth < maxShellDepth && len(stages) == 1:
		inner := shell.PipelinesWithRedirections(w[2])
		if len(inner) != 1 {
			return contentSource{}
		}
		src := contentOfPipeline(inner[0], depth+1)
		src.path, src.firstLine = "", 0
		return src
	case prog == "git":
		return gitContent(w[1:])
	case prog == "diff" || prog == "colordiff":
		return contentSource{kind: contentDiffTool}
	case isJSONTool(w):
		if len(w) > 3 || shell.InputFile(raw[0]) != "" {
			return contentSource{kind: contentFile}
		}
		return contentSource{}
	case fileViewers[prog] || contentFilters[prog]:
		files, first := viewerFiles(prog, w[1:])
		if !fileViewers[prog] {
			files, first = nil, 0 // a filter's operands are its sets or options, not files; tr may join lines
		}
		if in := shell.InputFile(raw[0]); in != "" && len(files) == 0 {
			files = []string{in}
		}
		if len(files) == 0 {
			return contentSource{} // reads stdin: a here-doc or a pipe's output
		}
		src := contentSource{kind: contentFile}
		if len(files) == 1 && !piped {
			src.path, src.firstLine = files[0], first
		}
		return src
	}
	return contentSource{}
}

// isJSONTool reports whether command words run Python's JSON
// pretty-printer ("python3 -m json.tool [f]"), which prints a file's JSON
// re-indented like jq . does.
func isJSONTool(w []string) bool {
	return len(w) >= 3 && (w[0] == "python3" || w[0] == "python") && w[1] == "-m" && w[2] == "json.tool"
}

// gitContent classifies a git command by its subcommand (global options
// skipped): diff, show, log -p, format-patch, stash show -p give diffs;
// blame, cat-file -p, show REV:path and log without a patch give lines
// to be cut like a file's.
func gitContent(args []string) contentSource {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree":
			i++
			continue
		case strings.HasPrefix(a, "-"):
			continue
		}
		rest := args[i+1:]
		switch a {
		case "show":
			for _, r := range rest {
				if !strings.HasPrefix(r, "-") && strings.Contains(r, ":") {
					return contentSource{kind: contentFile} // git show REV:path prints a file of REV
				}
			}
			return contentSource{kind: contentDiff}
		case "diff", "format-patch", "range-diff":
			return contentSource{kind: contentDiff}
		case "log", "whatchanged":
			for _, r := range rest {
				if r == "-p" || r == "--patch" || r == "-u" || strings.HasPrefix(r, "-L") || r == "--cc" {
					return contentSource{kind: contentDiff}
				}
			}
			// The history itself: a commit's subject is no use without its
			// hash above it, nor a branch of --graph without its lines, so
			// it is cut between regions like a file, never picked.
			return contentSource{kind: contentFile}
		case "stash":
			if len(rest) > 0 && rest[0] == "show" {
				return contentSource{kind: contentDiff}
			}
		case "blame", "annotate":
			return contentSource{kind: contentFile, annotated: true}
		case "cat-file":
			return contentSource{kind: contentFile}
		}
		return contentSource{}
	}
	return contentSource{}
}

// viewerFiles returns the file operands of a file viewer's arguments and
// the file line its output starts at: 1 for cat, nl, head and the like, A
// for "sed -n A,Bp" or "sed -n Ap", K for "tail -n +K", else 0 (unknown).
func viewerFiles(prog string, args []string) (files []string, first int) {
	first = 1
	script := prog == "sed" || prog == "jq" || prog == "yq" // their first operand is a program
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			files = append(files, args[i+1:]...)
			i = len(args)
		case (prog == "head" || prog == "tail") && (a == "-n" || a == "-c") && i+1 < len(args):
			if prog == "tail" {
				first = tailStart(args[i+1])
			}
			i++
		case prog == "tail" && (strings.HasPrefix(a, "-n") || strings.HasPrefix(a, "-")):
			if strings.HasPrefix(a, "-n") && len(a) > 2 {
				first = tailStart(a[2:])
			} else {
				first = 0
			}
		case prog == "sed" && (a == "-e" || a == "--expression") && i+1 < len(args):
			first = sedStart(args[i+1])
			script = false
			i++
		case (prog == "jq" || prog == "yq") && (a == "--arg" || a == "--argjson") && i+2 < len(args):
			i += 2
		case strings.HasPrefix(a, "-") && a != "-":
		case script:
			if prog == "sed" {
				first = sedStart(a)
			}
			script = false
		default:
			files = append(files, a)
		}
	}
	if prog == "sed" && !isSedPrint(append([]string{"sed"}, args...)) {
		first = 0 // a sed script that edits or drops lines: no line mapping
	}
	if prog == "xxd" || prog == "tac" || prog == "jq" || prog == "yq" {
		first = 0
	}
	return files, first
}

// tailStart is the first file line "tail -n ARG" prints: K for "+K", else
// unknown (0).
func tailStart(arg string) int {
	if k, err := strconv.Atoi(strings.TrimPrefix(arg, "+")); err == nil && strings.HasPrefix(arg, "+") && k > 0 {
		return k
	}
	return 0
}

// sedStart is the first line a "sed -n" print script of one address or
// one range ("120,340p", "5p", "10,+20p", "7,$p") prints, or 0 when the
// script is anything else (several ranges, a regexp address, commands).
func sedStart(script string) int {
	s, ok := strings.CutSuffix(strings.TrimSpace(script), "p")
	if !ok {
		return 0
	}
	a, b, ranged := strings.Cut(s, ",")
	k, err := strconv.Atoi(a)
	if err != nil || k <= 0 {
		return 0
	}
	if ranged {
		b = strings.TrimPrefix(b, "+")
		if _, err := strconv.Atoi(b); err != nil && b != "$" {
			return 0
		}
	}
	return k
}

// isSedPrint reports whether sed's words (program first) only print lines
// of its input: -n and one script of one address or range and p (see
// sedStart), given once, as an operand or with -e.
func isSedPrint(w []string) bool {
	n, scripts, script := false, 0, ""
	for i := 1; i < len(w); i++ {
		a := w[i]
		switch {
		case a == "-n" || a == "--quiet" || a == "--silent":
			n = true
		case (a == "-e" || a == "--expression") && i+1 < len(w):
			scripts++
			script = w[i+1]
			i++
		case strings.HasPrefix(a, "-"):
		case scripts == 0:
			scripts++
			script = a
		}
	}
	return n && scripts == 1 && sedStart(script) > 0
}

// isLogPath reports whether a file path names a log: *.log, *.log.N,
// *.out, or a file under a log or logs folder.
func isLogPath(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	if strings.HasSuffix(base, ".log") || strings.HasSuffix(base, ".out") || strings.Contains(base, ".log.") {
		return true
	}
	return strings.Contains(p, "/log/") || strings.Contains(p, "/logs/") || strings.HasPrefix(p, "log/") || strings.HasPrefix(p, "logs/")
}

// isNumberedListing reports whether an output is a line-numbered listing
// of a file: of its first 50 non-blank lines at least 45 open with a
// number (after blanks) followed by a tab, "→", ":", "|" or a space, and
// the numbers go up by one from each such line to the next.
func isNumberedListing(out string) bool {
	n, good, prev := 0, 0, -1
	for l := range strings.SplitSeq(out[:min(len(out), 64<<10)], "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n++; n > 50 {
			break
		}
		t := strings.TrimLeft(l, " ")
		d := 0
		for d < len(t) && isDigit(t[d]) {
			d++
		}
		if d == 0 || d == len(t) || !(t[d] == '\t' || t[d] == ':' || t[d] == '|' || t[d] == ' ' || strings.HasPrefix(t[d:], "→")) {
			prev = -1
			continue
		}
		k, _ := strconv.Atoi(t[:d])
		if prev < 0 || k == prev+1 {
			good++
		}
		prev = k
	}
	return n >= 10 && good*10 >= min(n, 50)*9
}

// hasDiffShape reports whether an output holds a diff: within its first
// 400 lines a "diff --git" line, or a "--- " line followed by "+++ " and
// then a "@@ " hunk header.
// classicHunkRe is the hunk header of diff(1)'s normal format: "15c15",
// "214,215c214,215", "7a8,9", "3,4d2".
var classicHunkRe = lazyCompile(`^\d+(,\d+)?[acd]\d+(,\d+)?$`)

// hasClassicDiffShape reports whether out, of the first 400 lines, holds a
// hunk header of diff(1)'s normal format (classicHunkRe) or of its context
// format ("***************" then "*** 12,17 ****").
func hasClassicDiffShape(out string) bool {
	n, stars := 0, false
	for l := range strings.SplitSeq(out, "\n") {
		if n++; n > 400 {
			break
		}
		l = strings.TrimSuffix(l, "\r")
		switch {
		case classicHunkRe.MatchString(l):
			return true
		case l == "***************":
			stars = true
		case stars && strings.HasPrefix(l, "*** ") && strings.HasSuffix(l, " ****"):
			return true
		default:
			stars = false
		}
	}
	return false
}

// isClassicDiffMeta reports whether a line of diff(1)'s normal or context
// output heads a file or a hunk: "diff -r a/x b/x", "Only in …", "Binary
// files …", a normal hunk header (classicHunkRe), the context format's
// "***************", "*** 12,17 ****", "--- 12,18 ----" and its file
// headers "*** a/x\t…" and "--- b/x\t…". The normal format's "---"
// between a hunk's old and new lines has no space after it and is body.
func isClassicDiffMeta(l string) bool {
	switch {
	case classicHunkRe.MatchString(l), l == "***************":
		return true
	case strings.HasPrefix(l, "diff "), strings.HasPrefix(l, "Only in "), strings.HasPrefix(l, "Binary files "),
		strings.HasPrefix(l, "Common subdirectories: "), strings.HasPrefix(l, "*** "), strings.HasPrefix(l, "--- "):
		return true
	}
	return false
}

func hasDiffShape(out string) bool {
	state := 0 // 1 after "--- ", 2 after "+++ "
	n := 0
	for l := range strings.SplitSeq(out, "\n") {
		if n++; n > 400 {
			break
		}
		l = strings.TrimSuffix(l, "\r")
		if strings.IndexByte(l, 0x1b) >= 0 {
			l = cleanLine(l)
		}
		switch {
		case strings.HasPrefix(l, "diff --git "):
			return true
		case strings.HasPrefix(l, "--- "):
			state = 1
		case state == 1 && strings.HasPrefix(l, "+++ "):
			state = 2
		case state == 2 && strings.HasPrefix(l, "@@ "):
			return true
		default:
			state = 0
		}
	}
	return false
}
