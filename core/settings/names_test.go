package settings

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseHookNames(t *testing.T) {
	tests := []struct {
		list string
		want []string
		err  string // substring of the error; "" for none
	}{
		{"userprompt,pretooluse", []string{"userprompt", "pretooluse"}, ""},
		{"posttooluse", []string{"posttooluse"}, ""},
		{"prompt, pretool", []string{"userprompt", "pretooluse"}, ""},
		{" PostTool ,userprompt,prompt", []string{"posttooluse", "userprompt"}, ""},
		{"userprompt,pretooluse,posttooluse", []string{"userprompt", "pretooluse", "posttooluse"}, ""},
		{"posttol", nil, `unknown hook "posttol": want userprompt, pretooluse or posttooluse (or prompt, pretool, posttool)`},
		{"vaultctx-userprompt", nil, `unknown hook "vaultctx-userprompt"`},
		{"UserPromptSubmit", nil, `unknown hook "UserPromptSubmit"`},
		{"", nil, "an empty name"},
		{"prompt,,pretool", nil, "an empty name"},
	}
	for _, tt := range tests {
		t.Run(tt.list, func(t *testing.T) {
			got, err := ParseHookNames(tt.list)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want one containing %q", err, tt.err)
			case tt.err != "" && strings.Contains(tt.err, "unknown") && !errors.Is(err, ErrUnknownHook):
				t.Fatalf("error %v does not wrap ErrUnknownHook", err)
			case !reflect.DeepEqual(got, tt.want):
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
	for _, b := range Binaries {
		if n, err := ParseHookNames(HookName(b)); err != nil || len(n) != 1 || n[0] != HookName(b) {
			t.Errorf("%s: the short name %q does not parse: %v", b, HookName(b), err)
		}
	}
}

// TestSelectOnlyWiresTheNamedHooks: a selection wires its hooks and takes
// out our others, leaving every foreign hook alone; selecting nothing is
// Remove.
func TestSelectOnlyWiresTheNamedHooks(t *testing.T) {
	orig := readFixture(t, "competitors.json")
	all := mustPlan(t, "/b")
	full, err := Merge(orig, all)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		names  []string
		events []string
	}{
		// The prompt hook also answers SessionStart and SubagentStart.
		{[]string{"userprompt", "pretooluse"}, []string{"UserPromptSubmit", "SessionStart", "SubagentStart", "PreToolUse"}},
		{[]string{"posttooluse"}, []string{"PostToolUse"}},
		{[]string{"userprompt", "pretooluse", "posttooluse"}, []string{"UserPromptSubmit", "SessionStart", "SubagentStart", "PreToolUse", "PostToolUse"}},
		{nil, nil},
	} {
		t.Run(strings.Join(tt.names, ","), func(t *testing.T) {
			p := all.Select(tt.names)
			for _, src := range [][]byte{orig, full} {
				out, err := Merge(src, p)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for ev := range ours(t, out) {
					got = append(got, ev)
				}
				slices.Sort(got)
				want := slices.Clone(tt.events)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("wired %q, want %q", got, want)
				}
				if !reflect.DeepEqual(foreign(t, out), foreign(t, orig)) {
					t.Errorf("foreign hooks changed")
				}
				if again, _ := Merge(out, p); !bytes.Equal(again, out) {
					t.Errorf("not idempotent")
				}
				if len(tt.names) == 0 && !bytes.Equal(out, orig) {
					t.Errorf("an empty selection did not restore the file:\n%s", out)
				}
			}
		})
	}
	if out, err := Merge(nil, all.Select(nil)); err != nil || len(out) != 0 {
		t.Errorf("empty selection on an empty file = %q, %v; want it unchanged", out, err)
	}
}
