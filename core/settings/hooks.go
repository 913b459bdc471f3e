package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/template"
)

// Names of the three hook binaries, as installed in the bin directory.
const (
	UserPromptBinary  = "vaultctx-userprompt"  // UserPromptSubmit
	PreToolUseBinary  = "vaultctx-pretooluse"  // PreToolUse
	PostToolUseBinary = "vaultctx-posttooluse" // PostToolUse
)

// MaxTimeout is the largest hook timeout Render accepts, in seconds. Claude
// Code's timeouts are in seconds; a context hook that needs more than this
// is broken, and a larger value only delays the user when it hangs.
const MaxTimeout = 30

// ErrShape is returned (wrapped) when a settings file is valid JSON but its
// hooks cannot be edited safely: the top level is not an object, "hooks" or
// an event we must edit has the wrong type, or a key we must edit appears
// twice. The file is left untouched.
var ErrShape = errors.New("unexpected settings shape; left unchanged")

// Plan is the wiring vaultctx wants in settings.json, rendered from the
// template by Render: one matcher group holding one command hook per event.
type Plan struct {
	Groups []Group
}

// Group is one matcher group of a Plan.
type Group struct {
	Event   string  // hook event, e.g. "PreToolUse"
	Matcher string  // tool-name matcher; "" when the template has none
	Handler Handler // the one command hook of the group
	raw     []byte  // the group object, compact JSON
}

// Handler is one command hook of a Plan.
type Handler struct {
	Binary        string  // base name of the binary, e.g. "vaultctx-pretooluse"
	Command       string  // the shell command line, an absolute path
	Timeout       float64 // seconds, in (0, MaxTimeout]
	StatusMessage string  // spinner text shown while it runs; may be ""
	raw           []byte  // the handler object, compact JSON
}

// TemplateData is what the settings template is executed with. Each field
// is a shell command line (an absolute path, quoted for sh when needed);
// the template writes them with the json function, e.g. {{json .UserPrompt}}.
type TemplateData struct {
	UserPrompt  string
	PreToolUse  string
	PostToolUse string
}

// Render executes the settings template tmpl (text/template producing a
// settings.json fragment {"hooks": {...}}) for the binaries in binDir, and
// checks the result: every handler is a command hook running one of our
// binaries, with a timeout in (0, MaxTimeout] seconds, and every event has
// exactly one group with exactly one handler. binDir is made absolute.
func Render(tmpl []byte, binDir string) (*Plan, error) {
	abs, err := filepath.Abs(binDir)
	if err != nil {
		return nil, fmt.Errorf("render settings: %w", err)
	}
	t, err := template.New("settings.json.tmpl").Funcs(template.FuncMap{
		"json": func(s string) (string, error) {
			b, err := marshalNoEscape(s)
			return string(b), err
		},
	}).Option("missingkey=error").Parse(string(tmpl))
	if err != nil {
		return nil, fmt.Errorf("render settings: %w", err)
	}
	data := TemplateData{
		UserPrompt:  ShellQuote(filepath.Join(abs, UserPromptBinary)),
		PreToolUse:  ShellQuote(filepath.Join(abs, PreToolUseBinary)),
		PostToolUse: ShellQuote(filepath.Join(abs, PostToolUseBinary)),
	}
	var out bytes.Buffer
	if err := t.Execute(&out, data); err != nil {
		return nil, fmt.Errorf("render settings: %w", err)
	}
	return parsePlan(out.Bytes())
}

// parsePlan reads and checks a rendered template.
func parsePlan(src []byte) (*Plan, error) {
	if err := json.Unmarshal(src, new(any)); err != nil {
		return nil, fmt.Errorf("render settings: template output is not JSON: %w", err)
	}
	root, err := parseTree(src)
	if err != nil {
		return nil, fmt.Errorf("render settings: %w", err)
	}
	hooks := root.get("hooks")
	if hooks == nil || hooks.kind != '{' {
		return nil, fmt.Errorf("render settings: template has no \"hooks\" object")
	}
	p := &Plan{}
	for _, em := range hooks.members {
		if em.val.kind != '[' || len(em.val.elems) != 1 {
			return nil, fmt.Errorf("render settings: %s: want an array of one matcher group", em.key)
		}
		g := em.val.elems[0]
		hs := g.get("hooks")
		if hs == nil || hs.kind != '[' || len(hs.elems) != 1 {
			return nil, fmt.Errorf("render settings: %s: want a group with one hook", em.key)
		}
		h := hs.elems[0]
		var hv struct {
			Type          string   `json:"type"`
			Command       string   `json:"command"`
			Timeout       *float64 `json:"timeout"`
			StatusMessage string   `json:"statusMessage"`
		}
		if err := json.Unmarshal(src[h.start:h.end], &hv); err != nil {
			return nil, fmt.Errorf("render settings: %s: %w", em.key, err)
		}
		bin, ours := Ours(em.key, hv.Command)
		_, _, runsOurs := ourWord(hv.Command)
		switch {
		case hv.Type != "command":
			return nil, fmt.Errorf("render settings: %s: type %q, want \"command\"", em.key, hv.Type)
		case !ours && runsOurs:
			return nil, fmt.Errorf("render settings: %s: command %q runs %s, which core/settings does not know on %s (hookEvents)", em.key, hv.Command, baseName(OurProgram(hv.Command)), em.key)
		case !ours:
			return nil, fmt.Errorf("render settings: %s: command %q does not run a vaultctx hook binary", em.key, hv.Command)
		case hv.Timeout == nil || *hv.Timeout <= 0 || *hv.Timeout > MaxTimeout:
			return nil, fmt.Errorf("render settings: %s: timeout must be 1 to %d seconds", em.key, MaxTimeout)
		}
		matcher, _ := g.get("matcher").str(src)
		p.Groups = append(p.Groups, Group{
			Event:   em.key,
			Matcher: matcher,
			raw:     g.compact(src),
			Handler: Handler{
				Binary:        bin,
				Command:       hv.Command,
				Timeout:       *hv.Timeout,
				StatusMessage: hv.StatusMessage,
				raw:           h.compact(src),
			},
		})
	}
	if len(p.Groups) == 0 {
		return nil, fmt.Errorf("render settings: template wires no events")
	}
	return p, nil
}

// group returns the group of p for event that runs binary bin, or nil.
func (p *Plan) group(event, bin string) *Group {
	if p == nil {
		return nil
	}
	for i := range p.Groups {
		if p.Groups[i].Event == event && p.Groups[i].Handler.Binary == bin {
			return &p.Groups[i]
		}
	}
	return nil
}

// Program returns the program a hook command line runs, as sh would read
// it: the first word with quotes and escapes removed, after any leading
// `cd DIR &&` (see firstCommand), NAME=value assignments and an `env` or
// `exec` prefix. So `cd /p && VAULTCTX_LOG=/tmp/l '/a b/vaultctx-userprompt' --x`
// runs "/a b/vaultctx-userprompt".
func Program(command string) string {
	words, _ := firstCommand(command)
	if p := programIndex(words); p >= 0 {
		return words[p].text
	}
	return ""
}

// programIndex returns the index of the program among the words of a
// simple command: the first after leading assignments and `env` or `exec`,
// where the last word always counts; -1 when there are no words.
func programIndex(words []shellWord) int {
	for i, w := range words {
		if (w.assignment || w.text == "env" || w.text == "exec") && i+1 < len(words) {
			continue
		}
		return i
	}
	return -1
}

// shellWord is one word of a command line as sh reads it.
type shellWord struct {
	text       string // quotes and escapes removed
	start, end int    // its bytes in the command line, quotes included
	assignment bool   // a NAME=value word
	raw        []int  // for each byte of text, its index in the command line
	quote      []byte // for each byte of text, the quote it was read in: 0, '\'' or '"'
	esc        []bool // for each byte of text, whether a backslash escaped it
	// within is set for a word found inside another word's text (see
	// ourWord): 0 when it lay in one quoting of the outer word, which
	// withProgram can write a replacement into, else 'x'.
	within byte
	nested bool
}

// inner returns in, a word of w.text, with its bytes mapped back into the
// command line w was read from.
func (w shellWord) inner(in shellWord) shellWord {
	out := in
	// quote and esc stay: they describe in.text, which expand reads.
	out.nested, out.raw = true, nil
	out.start, out.end = w.raw[in.start], w.raw[in.end-1]+1
	q := w.quote[in.start]
	for i := in.start; i < in.end; i++ {
		if q == '\'' && i > in.start && i+1 < in.end && quoteEscape(w, i) {
			i++ // a ' written as '\'' inside single quotes, as withProgram writes it
			continue
		}
		// Within one quoting the bytes skipped between two of the word
		// are quotes closed and opened again ("a""b") or, in double
		// quotes, the backslashes of escapes (\$, \", \\), as
		// withProgram writes them: the span still starts and ends in q.
		// Unquoted, a skipped byte is an escape withProgram cannot write.
		if w.quote[i] != q || q == 0 && i > in.start && w.raw[i] != w.raw[i-1]+1 {
			out.within = 'x' // mixed quoting or escapes: not rewritten
			return out
		}
	}
	out.within = q
	return out
}

// quoteEscape reports whether byte i of w.text is a ' that the command line
// spells, between two single-quoted bytes (i-1 and i+1 exist), as sh's
// idiom for a quote inside single quotes: close the quotes, an escaped
// quote, open them again.
//
//	'\''
func quoteEscape(w shellWord, i int) bool {
	return w.text[i] == '\'' && w.quote[i] == 0 && w.quote[i-1] == '\'' && w.quote[i+1] == '\'' &&
		w.raw[i] == w.raw[i-1]+3 && w.raw[i+1] == w.raw[i]+2
}

// firstCommand splits the first simple command of a command line into
// words, as sh reads them: quotes and backslash escapes removed; an
// unquoted ;, & or | ends the command (and the scan). A leading `cd` that
// the next command follows with && or ; is skipped, as are several in a
// row (`cd "$CLAUDE_PROJECT_DIR" && /x/vaultctx-userprompt`): it only
// picks the folder that command runs in, so that command is the first
// that counts; the skipped ones come back as cds, in order. A cd followed
// by ||, & or | is not: the command after it then runs only when cd
// fails, or beside it. Word offsets are in s.
func firstCommand(s string) ([]shellWord, []cdCommand) {
	var cds []cdCommand
	i := 0
	for {
		words, end := simpleCommand(s, i)
		if len(words) == 0 || words[0].text != "cd" {
			return words, cds
		}
		switch {
		case strings.HasPrefix(s[end:], "&&"):
			i = end + 2
			cds = append(cds, cdCommand{args: words[1:], and: true})
		case strings.HasPrefix(s[end:], ";") && !strings.HasPrefix(s[end:], ";;"):
			i = end + 1
			cds = append(cds, cdCommand{args: words[1:]})
		default:
			return words, cds
		}
	}
}

// cdCommand is a leading cd that firstCommand skipped.
type cdCommand struct {
	args []shellWord // the words after "cd"
	and  bool        // followed by &&: what comes next runs only when cd succeeds
	env  bool        // not a cd but the folder of env's -C (--chdir): args holds just it
}

// simpleCommand splits the simple command of s that starts at byte i into
// words (see firstCommand) and returns them with the index of the
// unquoted ;, & or | that ends it, or len(s).
func simpleCommand(s string, i int) ([]shellWord, int) {
	var out []shellWord
	for {
		for i < len(s) && strings.IndexByte(" \t\n", s[i]) >= 0 {
			i++
		}
		if i == len(s) || strings.IndexByte(";&|", s[i]) >= 0 {
			return out, i
		}
		w, end := scanWord(s, i)
		out = append(out, w)
		i = end
	}
}

// scanWord reads the word of s starting at byte i (not blank, not a
// separator) and returns it with the index just past it.
func scanWord(s string, i int) (shellWord, int) {
	start := i
	var w strings.Builder
	var raw []int
	var quotes []byte
	var esc []bool
	var quote byte
	quoted := false  // a quote appeared before any '='
	escaped := false // the byte add takes next follows a backslash that escapes it
	add := func(at int) {
		w.WriteByte(s[at])
		raw = append(raw, at)
		quotes = append(quotes, quote)
		esc = append(esc, escaped)
		escaped = false
	}
loop:
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				add(i)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(s):
				i++
				escaped = true
				add(i)
			default:
				add(i)
			}
		case c == '\'' || c == '"':
			quote = c
			if !strings.Contains(w.String(), "=") {
				quoted = true
			}
		case c == '\\' && i+1 < len(s) && strings.IndexByte(" \t'\"\\$`;&|", s[i+1]) >= 0:
			// An escape as sh reads it; other backslashes are kept, so a
			// Windows path still yields its base name.
			i++
			escaped = true
			add(i)
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|':
			break loop
		default:
			add(i)
		}
	}
	word := shellWord{text: w.String(), start: start, end: i, raw: raw, quote: quotes, esc: esc}
	if eq := strings.IndexByte(word.text, '='); eq > 0 && !quoted && isName(word.text[:eq]) {
		word.assignment = true
	}
	return word, i
}

// isName reports whether s is an sh variable name.
func isName(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// ShellQuote returns s as one sh word: unchanged when it holds only
// characters sh leaves alone, else in single quotes. Claude Code runs a
// hook's command through a shell, so a bin directory with spaces must be
// quoted.
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_/.,:@%+=-", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// earlierMatchers are the matchers earlier versions of
// install/settings.json.tmpl gave each event, which Merge updates to the
// current template's (see step).
var earlierMatchers = map[string][]string{
	"SessionStart": {"compact|clear"},
	"PostToolUse":  {"Bash"},
}

// maxSteps bounds the edit loop of apply; every step is one splice, and a
// settings file holds a handful of our entries at most.
const maxSteps = 10000

// Merge returns src with plan's hooks merged in: each group of plan is
// present exactly once. Where the event already holds an entry of ours for
// the same binary (the first in file order, whatever its group and
// matcher), only the path of the binary in its command changes: the
// matcher, timeout, status message and every other field, and the rest of
// the command line (an env prefix such as VAULTCTX_LOG=..., a wrapper,
// arguments) stay as the user left them; a missing "type" is added as
// "command", which Claude Code needs. Otherwise the plan's group is
// appended to the event. Entries of ours that plan does not want
// (duplicates, stale events) are removed. Everything else keeps its bytes and order. Empty or
// whitespace-only src counts as {}. A plan without groups (see Plan.Select)
// is Remove. It returns ErrShape (wrapped) for files it cannot edit safely
// and a *SyntaxError for invalid JSON.
func Merge(src []byte, plan *Plan) ([]byte, error) {
	if plan == nil {
		return nil, errors.New("merge settings: nil plan")
	}
	if len(plan.Groups) == 0 {
		return Remove(src)
	}
	return apply(src, plan)
}

// Remove returns src without any hook entry of ours. A matcher group is
// removed only when it held nothing else, an event only when its array
// became empty, and "hooks" only when it became empty; everything else keeps
// its bytes and order. Errors are as for Merge.
func Remove(src []byte) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return src, nil // nothing of ours in an empty file
	}
	return apply(src, nil)
}

func apply(src []byte, plan *Plan) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}\n")
	}
	if err := checkSyntax(src); err != nil {
		return nil, err
	}
	st := detectStyle(src)
	for range maxSteps {
		root, err := parseTree(src)
		if err != nil {
			return nil, err
		}
		next, changed, err := step(src, root, plan, st)
		if err != nil {
			return nil, err
		}
		if !changed {
			return src, nil
		}
		src = next
	}
	return nil, fmt.Errorf("merge settings: no fixed point after %d edits", maxSteps)
}

// step makes the first edit src needs, reporting false when none is left.
func step(src []byte, root *node, plan *Plan, st style) ([]byte, bool, error) {
	if root.kind != '{' {
		return nil, false, fmt.Errorf("top level is %s, want an object: %w", kindName(root.kind), ErrShape)
	}
	hi := root.lookup("hooks")
	switch {
	case len(hi) > 1:
		return nil, false, fmt.Errorf("key \"hooks\" appears %d times: %w", len(hi), ErrShape)
	case len(hi) == 0 && plan == nil:
		return src, false, nil
	case len(hi) == 0:
		return appendMember(src, st, root, "hooks", []byte("{}")), true, nil
	}
	hooksAt := hi[0]
	hooks := root.members[hooksAt].val
	if hooks.kind != '{' {
		return nil, false, fmt.Errorf("\"hooks\" is %s, want an object: %w", kindName(hooks.kind), ErrShape)
	}
	seen := map[string]bool{}
	for _, em := range hooks.members {
		if seen[em.key] {
			return nil, false, fmt.Errorf("key \"hooks.%s\" appears more than once: %w", em.key, ErrShape)
		}
		seen[em.key] = true
	}

	placed := map[string]bool{}
	for ei, em := range hooks.members {
		ev := em.val
		if ev.kind != '[' {
			continue // not an event array: nothing of ours can be in it
		}
		for gi, g := range ev.elems {
			hs := g.get("hooks")
			if hs == nil || hs.kind != '[' {
				continue
			}
			for hj, h := range hs.elems {
				cmdNode := h.get("command")
				cmd, ok := cmdNode.str(src)
				if !ok {
					continue
				}
				bin, ours := Ours(em.key, cmd)
				if !ours {
					continue
				}
				want := plan.group(em.key, bin)
				if want != nil && !placed[em.key] {
					// The entry stays where it is, as the user may have
					// edited it: only the path of our binary changes.
					placed[em.key] = true
					if next := withProgram(cmd, want.Handler.Command); next != cmd {
						raw, err := marshalNoEscape(next)
						if err != nil {
							return nil, false, fmt.Errorf("merge settings: %w", err)
						}
						return splice(src, cmdNode.start, cmdNode.end, raw), true, nil
					}
					if h.kind == '{' && h.get("type") == nil {
						// Claude Code runs only hooks that say their type.
						return appendMember(src, st, h, "type", []byte(`"command"`)), true, nil
					}
					// A matcher an earlier vaultctx template wrote, in a group
					// holding only our hook, follows the template: the user did
					// not choose it, and keeping it would keep the hook off the
					// events the new version answers (SessionStart at startup,
					// PostToolUse on Write). A matcher of the user's own stays.
					if mn := g.get("matcher"); mn != nil && len(hs.elems) == 1 && want.Matcher != "" {
						if m, ok := mn.str(src); ok && m != want.Matcher && slices.Contains(earlierMatchers[em.key], m) {
							raw, err := marshalNoEscape(want.Matcher)
							if err != nil {
								return nil, false, fmt.Errorf("merge settings: %w", err)
							}
							return splice(src, mn.start, mn.end, raw), true, nil
						}
					}
					continue
				}
				// Ours but unwanted here: remove it, and whatever it leaves empty.
				switch {
				case len(hs.elems) > 1:
					return removeElem(src, hs, hj), true, nil
				case len(ev.elems) > 1:
					return removeElem(src, ev, gi), true, nil
				case len(hooks.members) > 1:
					return removeMember(src, hooks, ei), true, nil
				default:
					return removeMember(src, root, hooksAt), true, nil
				}
			}
		}
	}
	if plan == nil {
		return src, false, nil
	}
	for _, g := range plan.Groups {
		if placed[g.Event] {
			continue
		}
		ei := hooks.lookup(g.Event)
		if len(ei) == 0 {
			return appendMember(src, st, hooks, g.Event, append(append([]byte{'['}, g.raw...), ']')), true, nil
		}
		ev := hooks.members[ei[0]].val
		if ev.kind != '[' {
			return nil, false, fmt.Errorf("\"hooks.%s\" is %s, want an array: %w", g.Event, kindName(ev.kind), ErrShape)
		}
		return appendElem(src, st, ev, g.raw), true, nil
	}
	return src, false, nil
}

// withProgram returns command, a command line of ours (see Ours), running
// the program of planned (a command line of the plan) instead of its own,
// with everything around the program word as it was: assignments,
// wrappers, arguments, redirections. command comes back unchanged when it
// already runs that program (see sameProgram), however it is written: in
// quotes, as ~/… or $HOME/…, or by a bare name found on PATH, so a
// re-install keeps a portable entry the user wrote.
//
// Inside a command string for a shell (`sh -c '... /x/vaultctx-userprompt'`)
// the new path is written for the quoting it lands in: as is when it needs
// no quotes; else in double quotes inside single ones (a ' of the path in
// sh's idiom, see quoteEscape), and in single quotes (escaped for the
// outer double quotes) inside double ones. A program word there that mixes
// quotings or escapes is left as it was.
func withProgram(command, planned string) string {
	w, _, ok := ourWord(command)
	pw, _, pok := ourWord(planned)
	if !ok || !pok || sameProgram(w, pw.text) {
		return command
	}
	rep := planned[pw.start:pw.end]
	if w.nested {
		dq := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
		switch {
		case w.within == 'x':
			return command
		case ShellQuote(pw.text) == pw.text:
			rep = pw.text
		case w.within == '\'':
			// Double quotes for the shell inside; a ' of the path closes
			// the outer quotes, so it goes as '\'' (close, escaped quote,
			// reopen), which the outer shell hands on as a plain '.
			rep = strings.ReplaceAll(`"`+dq.Replace(pw.text)+`"`, "'", `'\''`)
		case w.within == '"':
			rep = dq.Replace(ShellQuote(pw.text))
		default:
			return command
		}
	}
	return command[:w.start] + rep + command[w.end:]
}

// sameProgram reports whether w, the program word of an entry of ours,
// runs the file at path: it names path as written, or once a leading ~
// and $HOME are expanded from this process's HOME (shellWord.expand), a
// bare name being looked up on this process's PATH (exec.LookPath); the
// result and path are compared cleaned, else as files (os.SameFile: a
// symlink to path counts). Claude Code runs hooks with the environment it
// was started in, normally the one `vaultctx hooks install` runs in.
func sameProgram(w shellWord, path string) bool {
	if w.text == path {
		return true
	}
	p, ok := w.expand(os.Getenv("HOME"))
	if !ok {
		return false
	}
	if !strings.ContainsRune(p, '/') {
		found, err := exec.LookPath(p)
		if err != nil {
			return false
		}
		p = found
	}
	if filepath.Clean(p) == filepath.Clean(path) {
		return true
	}
	a, errA := os.Stat(p)
	b, errB := os.Stat(path)
	return errA == nil && errB == nil && os.SameFile(a, b)
}

// matcherOf returns a group's matcher, "" when absent or not a string.
func matcherOf(src []byte, g *node) string {
	m, _ := g.get("matcher").str(src)
	return m
}

// Entry is one command hook found in a settings file.
type Entry struct {
	Event   string  // e.g. "PreToolUse"
	Matcher string  // the group's matcher; "" when absent
	Command string  // the command line as written
	Binary  string  // our binary for an entry of ours, else the base name of Program (see Ours)
	Timeout float64 // seconds; 0 when absent
	Ours    bool    // the entry is ours: one of Binaries on an event the template wires it to (see Ours)
}

// Inspect lists every command hook of src, in file order. Empty src has
// none. It returns a *SyntaxError for invalid JSON and ErrShape (wrapped)
// when the top level or "hooks" is not an object.
func Inspect(src []byte) ([]Entry, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, nil
	}
	if err := checkSyntax(src); err != nil {
		return nil, err
	}
	root, err := parseTree(src)
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, fmt.Errorf("top level is %s, want an object: %w", kindName(root.kind), ErrShape)
	}
	hooks := root.get("hooks")
	if hooks == nil {
		return nil, nil
	}
	if hooks.kind != '{' {
		return nil, fmt.Errorf("\"hooks\" is %s, want an object: %w", kindName(hooks.kind), ErrShape)
	}
	var out []Entry
	for _, em := range hooks.members {
		if em.val.kind != '[' {
			continue
		}
		for _, g := range em.val.elems {
			hs := g.get("hooks")
			if hs == nil || hs.kind != '[' {
				continue
			}
			for _, h := range hs.elems {
				cmd, ok := h.get("command").str(src)
				if !ok {
					continue
				}
				e := Entry{Event: em.key, Matcher: matcherOf(src, g), Command: cmd}
				e.Binary, e.Ours = Ours(em.key, cmd)
				if t := h.get("timeout"); t != nil && t.kind == '0' {
					var f float64
					if json.Unmarshal(src[t.start:t.end], &f) == nil {
						e.Timeout = f
					}
				}
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// Disabled reports whether src, a valid settings file, sets
// "disableAllHooks": true, which turns off every hook.
func Disabled(src []byte) bool {
	if checkSyntax(src) != nil {
		return false
	}
	root, err := parseTree(src)
	if err != nil {
		return false
	}
	v := root.get("disableAllHooks")
	return v != nil && string(src[v.start:v.end]) == "true"
}

// SyntaxError is returned when a settings file is not valid JSON. Such a
// file is never modified.
type SyntaxError struct {
	Path         string // the file, when known
	Line, Column int    // 1-based position of the error
	Err          error  // the decoder's error
}

// Error says where the file is broken and that it was left unchanged.
func (e *SyntaxError) Error() string {
	where := "settings"
	if e.Path != "" {
		where = e.Path
	}
	return fmt.Sprintf("%s: not valid JSON at line %d, column %d: %v (left unchanged; fix it by hand and re-run)", where, e.Line, e.Column, e.Err)
}

// Unwrap returns the decoder's error.
func (e *SyntaxError) Unwrap() error { return e.Err }

// checkSyntax returns a *SyntaxError when src is not one valid JSON value.
func checkSyntax(src []byte) error {
	if json.Valid(src) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	var v any
	err := dec.Decode(&v)
	off := int(dec.InputOffset())
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		off = int(se.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		off = len(src)
		err = errors.New("unexpected end of file")
	case err == nil:
		err = errors.New("data after the top-level value")
		for off < len(src) && strings.IndexByte(" \t\r\n", src[off]) >= 0 {
			off++
		}
		off++ // point at the extra value, 1-based like the decoder's offsets
	}
	if off > len(src) {
		off = len(src)
	}
	line := 1 + bytes.Count(src[:off], []byte{'\n'})
	col := off - bytes.LastIndexByte(src[:off], '\n')
	return &SyntaxError{Line: line, Column: col, Err: err}
}
