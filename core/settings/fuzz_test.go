package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzMerge checks, for any valid JSON document, that Merge either refuses
// (ErrShape) or returns valid JSON in which: each plan event has exactly one
// entry of ours; foreign hooks and every other top-level member are
// unchanged and in order; a second Merge changes nothing; and Remove after
// Merge equals Remove on the input, up to whitespace and the empty event
// arrays and "hooks" object that Remove prunes.
func FuzzMerge(f *testing.F) {
	for _, name := range []string{"competitors.json", "stale.json"} {
		f.Add(readFixture(f, name))
	}
	for _, s := range []string{
		``, `{}`, `[]`, `null`, `{"hooks":{}}`, `{"hooks":[]}`, `{"hooks":{"Stop":[]}}`,
		`{"hooks":{"PreToolUse":[{"hooks":[{"command":"/b/vaultctx-pretooluse"}]},1,"x",{"hooks":7}]}}`,
		`{"a":{"hooks":{"PreToolUse":[]}},"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"x"}]}]}}`,
		`{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"command":"'/a b/vaultctx-posttooluse'"},{"command":"y"}]}]},"z":1e9}`,
		"{\n\t\"hooks\" : {\n\t\t\"Stop\" : [ ]\n\t}\n}",
	} {
		f.Add([]byte(s))
	}
	for _, l := range lookalikes("/home/u/.local/bin") {
		ev, _ := json.Marshal(l.event)
		cmd, _ := json.Marshal(l.command)
		f.Add([]byte(`{"hooks":{` + string(ev) + `:[{"hooks":[{"type":"command","command":` + string(cmd) + `}]}]}}`))
	}
	plan := mustPlan(f, "/home/u/.local/bin")
	f.Fuzz(func(t *testing.T, src []byte) { checkMerge(t, src, plan) })
}

// FuzzMergeGenerated is FuzzMerge over settings-shaped documents built from
// the fuzzer's bytes (see genSettings), which random bytes rarely are:
// events of ours and others, groups with and without matchers, our
// commands quoted in different ways, users' commands that look like ours,
// odd values where objects belong, and compact, tab, space and CRLF
// layouts. Each generated command says which binary of ours it runs, if
// any (genCommands), so the fuzzer also checks Ours against that label:
// an entry is ours exactly when it runs one of our binaries on an event
// the template wires that binary to.
func FuzzMergeGenerated(f *testing.F) {
	for _, s := range []string{"", "\x00\x01\x02", "hooks!", "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6"} {
		f.Add([]byte(s))
	}
	plan := mustPlan(f, "/home/u/.local/bin")
	f.Fuzz(func(t *testing.T, seed []byte) {
		src := genSettings(seed)
		if !json.Valid(src) {
			t.Fatalf("generator made invalid JSON:\n%s", src)
		}
		es, err := Inspect(src)
		if err != nil && !errors.Is(err, ErrShape) {
			t.Fatalf("Inspect: %v", err)
		}
		for _, e := range es {
			i := slices.IndexFunc(genCommands, func(c genCommand) bool { return c.command == e.Command })
			if i < 0 {
				t.Fatalf("command %q is not the generator's", e.Command)
			}
			if want := genCommands[i].binary != "" && plan.group(e.Event, genCommands[i].binary) != nil; e.Ours != want {
				t.Fatalf("%s %q: ours %v, want %v", e.Event, e.Command, e.Ours, want)
			}
		}
		checkMerge(t, src, plan)
	})
}

// checkMerge asserts the Merge and Remove properties on src.
func checkMerge(t *testing.T, src []byte, plan *Plan) {
	t.Helper()
	if len(bytes.TrimSpace(src)) != 0 && !json.Valid(src) {
		_, err := Merge(src, plan)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("invalid JSON: error %v, want *SyntaxError", err)
		}
		return
	}
	out, err := Merge(src, plan)
	if errors.Is(err, ErrShape) {
		return
	}
	if err != nil {
		t.Fatalf("Merge: %v", err)
	}
	if !json.Valid(out) {
		t.Fatalf("Merge produced invalid JSON:\n%s", out)
	}
	wired := ours(t, out)
	for _, g := range plan.Groups {
		if got := wired[g.Event]; len(got) != 1 || OurProgram(got[0]) != Program(g.Handler.Command) {
			t.Fatalf("%s: ours %q after Merge of\n%s\n=>\n%s", g.Event, got, src, out)
		}
	}
	if len(wired) != len(plan.Groups) {
		t.Fatalf("ours on %d events, want %d:\n%s", len(wired), len(plan.Groups), out)
	}
	in := src
	if len(bytes.TrimSpace(in)) == 0 {
		in = []byte("{}")
	}
	// An entry of ours that was there keeps everything but its program's
	// path; a new one is the plan's.
	before, _ := Inspect(in)
	es, _ := Inspect(out)
	for _, e := range es {
		if !e.Ours {
			continue
		}
		g := plan.group(e.Event, e.Binary)
		if g == nil {
			t.Fatalf("%s: our entry %+v is not in the plan:\n%s", e.Event, e, out)
		}
		i := slices.IndexFunc(before, func(b Entry) bool { return b.Ours && b.Event == e.Event && b.Binary == e.Binary })
		switch {
		case i < 0 && (e.Matcher != g.Matcher || e.Timeout != g.Handler.Timeout || e.Command != g.Handler.Command):
			t.Fatalf("%s: our new entry %+v does not match the plan:\n%s", e.Event, e, out)
		case i >= 0 && (!keptMatcher(e, before[i], g) || e.Timeout != before[i].Timeout || e.Command != withProgram(before[i].Command, g.Handler.Command)):
			t.Fatalf("%s: our entry %+v was %+v: more than its program changed:\n%s", e.Event, e, before[i], out)
		}
	}
	if got, want := foreign(t, out), foreign(t, in); !reflect.DeepEqual(got, want) {
		t.Fatalf("foreign hooks changed:\n got %+v\nwant %+v", got, want)
	}
	if got, want := topLevel(t, out), topLevel(t, in); !reflect.DeepEqual(got, want) {
		t.Fatalf("top-level members changed:\n got %q\nwant %q", got, want)
	}
	if bytes.Contains(in, []byte("\r\n")) && bytes.Count(out, []byte("\n")) != bytes.Count(out, []byte("\r\n")) {
		t.Fatalf("CRLF file got LF lines:\n%q", out)
	}
	again, err := Merge(out, plan)
	if err != nil || !bytes.Equal(again, out) {
		t.Fatalf("second Merge changed the file (err %v):\n%s\n=>\n%s", err, out, again)
	}
	back, err := Remove(out)
	if err != nil {
		t.Fatalf("Remove: %v", err)
	}
	direct, err := Remove(in)
	if err != nil {
		t.Fatalf("Remove on input: %v", err)
	}
	if got, want := pruned(t, back, plan), pruned(t, direct, plan); !bytes.Equal(got, want) {
		t.Fatalf("Remove(Merge(x)) != Remove(x):\n got %s\nwant %s", got, want)
	}
}

// keptMatcher reports whether our entry e, which was was, kept its matcher
// as Merge keeps it: unchanged, or updated to the plan group g's when it was
// a matcher an earlier template wrote (earlierMatchers), which Merge
// updates in a group holding only our hook.
func keptMatcher(e, was Entry, g *Group) bool {
	return e.Matcher == was.Matcher || e.Matcher == g.Matcher && slices.Contains(earlierMatchers[e.Event], was.Matcher)
}

// pruned returns src compacted, without the plan's events whose arrays are
// empty and without an empty "hooks" object: the differences Merge then
// Remove may leave, since Remove drops what it empties.
func pruned(t *testing.T, src []byte, plan *Plan) []byte {
	t.Helper()
	for {
		root, err := parseTree(src)
		if err != nil {
			t.Fatal(err)
		}
		hi := root.lookup("hooks")
		if len(hi) != 1 || root.members[hi[0]].val.kind != '{' {
			break
		}
		hooks := root.members[hi[0]].val
		if len(hooks.members) == 0 {
			src = removeMember(src, root, hi[0])
			continue
		}
		changed := false
		for i, m := range hooks.members {
			if m.val.kind == '[' && len(m.val.elems) == 0 && inPlan(plan, m.key) {
				src = removeMember(src, hooks, i)
				changed = true
				break
			}
		}
		if !changed {
			break
		}
	}
	var b bytes.Buffer
	if err := json.Compact(&b, src); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func inPlan(p *Plan, event string) bool {
	for _, g := range p.Groups {
		if g.Event == event {
			return true
		}
	}
	return false
}

// genCommand is a hook command genSettings writes, with the binary of
// ours it runs ("" for none), whatever the event.
type genCommand struct{ command, binary string }

// genCommands are the commands genSettings writes: ours, quoted and
// wrapped in different ways, and users' commands, some of which look like
// ours (lookalikes).
var genCommands = append([]genCommand{
	{"/old/bin/vaultctx-userprompt", UserPromptBinary},
	{"'/a b/vaultctx-pretooluse' --x", PreToolUseBinary},
	{"/x/vaultctx-posttooluse", PostToolUseBinary},
	{"vaultctx-stale", ""},
	{"node hook.js", ""},
	{"rtk hook", ""},
	{"echo vaultctx-userprompt", ""},
	{"", ""},
	{"VAULTCTX_LOG=/tmp/l /old/bin/vaultctx-userprompt", UserPromptBinary},
	{"nice -n 5 '/a b/vaultctx-posttooluse' 2>>/tmp/e", PostToolUseBinary},
	{"/home/u/.local/bin/vaultctx-pretooluse", PreToolUseBinary},
	{"env A=1 exec /x/vaultctx-pretooluse;true", PreToolUseBinary},
	{"sh -c 'VAULTCTX_LOG=/tmp/l /old/bin/vaultctx-userprompt'", UserPromptBinary},
	{`bash -lc "A='1 2' '/a b/vaultctx-posttooluse' --x"`, PostToolUseBinary},
	{`cd "$CLAUDE_PROJECT_DIR" && /old/bin/vaultctx-userprompt`, UserPromptBinary},
	{"cd /p; sh -c 'cd /q && /x/vaultctx-pretooluse'", PreToolUseBinary},
	{"cd /p && node hook.js", ""},
	{"cd /x/vaultctx-posttooluse && ls", ""},
	{"flock /tmp/l -c '/old/bin/vaultctx-userprompt'", UserPromptBinary},
	{"timeout 9 stdbuf -oL /x/vaultctx-posttooluse", PostToolUseBinary},
}, lookalikeCommands()...)

// lookalikeCommands are the commands of lookalikes, with the binary of
// ours the two that run one on an event we never wire run: the generator
// may put them on that binary's event, where they are ours.
func lookalikeCommands() []genCommand {
	var out []genCommand
	for _, l := range lookalikes("/home/u/.local/bin") {
		out = append(out, genCommand{l.command, l.runs})
	}
	return out
}

// genSettings builds a settings-like JSON document from seed, byte by byte;
// the same seed always gives the same document.
func genSettings(seed []byte) []byte {
	g := &gen{seed: seed}
	events := []string{"UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionStart", "Notification"}
	commands := genCommands
	matchers := []string{"", "Bash", "Grep|Glob|WebSearch|WebFetch|Task|Agent", "*", "Edit"}
	var hooks []string
	for n := g.next(6); n > 0; n-- {
		ev := events[g.next(len(events))]
		if g.next(12) == 0 {
			hooks = append(hooks, g.str(ev)+`:"odd"`)
			continue
		}
		var groups []string
		for m := g.next(4); m > 0; m-- {
			if g.next(10) == 0 {
				groups = append(groups, `42`)
				continue
			}
			var hs []string
			for k := g.next(3) + 1; k > 0; k-- {
				h := `{"type":"command","command":` + g.str(commands[g.next(len(commands))].command)
				if g.next(2) == 0 {
					h += `,"timeout":` + []string{"5", "1.5e1", "600"}[g.next(3)]
				}
				hs = append(hs, h+`}`)
			}
			grp := `{"hooks":[` + strings.Join(hs, ",") + `]`
			if mt := matchers[g.next(len(matchers))]; mt != "" || g.next(2) == 0 {
				grp = `{"matcher":` + g.str(mt) + `,` + grp[1:]
			}
			groups = append(groups, grp+`}`)
		}
		hooks = append(hooks, g.str(ev)+`:[`+strings.Join(groups, ",")+`]`)
	}
	var top []string
	for _, k := range []string{"model", "hooks", "env", "permissions", "x-unknown"} {
		if g.next(3) == 0 {
			continue
		}
		switch k {
		case "hooks":
			top = append(top, `"hooks":{`+strings.Join(hooks, ",")+`}`)
		case "env":
			top = append(top, `"env":{"A":"\u00e9","N":1e3}`)
		default:
			top = append(top, g.str(k)+`:[1,2.50,null,{"hooks":{"Stop":[]}}]`)
		}
	}
	if g.next(2) == 0 && len(top) > 1 {
		top[0], top[len(top)-1] = top[len(top)-1], top[0]
	}
	compact := []byte("{" + strings.Join(top, ",") + "}")
	var b bytes.Buffer
	switch g.next(4) {
	case 0:
		return compact
	case 1:
		json.Indent(&b, compact, "", "\t")
	case 2:
		json.Indent(&b, compact, "", "  ")
		return bytes.ReplaceAll(b.Bytes(), []byte("\n"), []byte("\r\n"))
	default:
		json.Indent(&b, compact, "", "  ")
	}
	return b.Bytes()
}

// gen hands out small numbers from a byte seed, then zeros.
type gen struct {
	seed []byte
	i    int
}

func (g *gen) next(n int) int {
	if g.i >= len(g.seed) {
		return 0
	}
	b := g.seed[g.i]
	g.i++
	return int(b) % n
}

func (g *gen) str(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
