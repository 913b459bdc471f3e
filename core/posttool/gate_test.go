package posttool

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/core/config"
	"github.com/vaultctx/vaultctx/core/internal/shell"
)

func TestPassthroughPrefix(t *testing.T) {
	prefixes := []string{"terraform plan", "git diff", "sudo apt", "/opt/bin/tool run", "make"}
	tests := []struct {
		command, want string
	}{
		{"git diff", "git diff"},
		{"git diff --stat HEAD~3", "git diff"},
		{"git  diff\t--stat", "git diff"},
		{"terraform plan -out plan.bin", "terraform plan"},
		{"cd infra && terraform plan", "terraform plan"},
		{"cd 'my repo' && git diff | head -50", "git diff"},
		{"go build ./... ; git diff", "git diff"},
		{"false || git diff", "git diff"},
		{"(cd sub && git diff)", "git diff"},
		{"echo $(git diff)", "git diff"},
		{"echo `git diff`", "git diff"},
		{"GIT_PAGER=cat git diff", "git diff"},
		{"A=1 B=2 env C=3 git diff", "git diff"},
		{"sudo git diff", "git diff"},
		{"time git diff", "git diff"},
		{"/usr/bin/git diff", "git diff"},
		{"'git' \"diff\"", "git diff"},
		{"git diff 2>&1", "git diff"},
		{"git diff >/tmp/d 2>&1 && cat /tmp/d", "git diff"},
		{"2>/dev/null git diff", "git diff"},
		{"git diff &>log & wait", "git diff"},
		{"git \\\n  diff", "git diff"},
		{"sudo apt install -y jq", "sudo apt"},
		{"/opt/bin/tool run x", "/opt/bin/tool run"},
		{"make check", "make"},
		// Substitutions inside double quotes, and the commands of compound
		// ones (fresh-user report).
		{`echo "$(git diff HEAD~10)"`, "git diff"},
		{`x="$(git diff --stat)"; echo "$x"`, "git diff"},
		{"echo \"`git diff`\"", "git diff"},
		{`echo "a $(printf '%s' "$(git diff)") b"`, "git diff"},
		{"if true; then git diff; fi", "git diff"},
		{"for f in a b; do git diff $f; done", "git diff"},
		{"{ git diff; }", "git diff"},
		{"! git diff --quiet", "git diff"},
		{"while read f; do git diff -- \"$f\"; done < list", "git diff"},
		{`echo "git diff"`, ""},
		{`echo "$HOME/git diff"`, ""},

		{"git difftool", ""},
		{"git log -p", ""},
		{"git", ""},
		{"echo git diff", ""},
		{"echo 'git diff'", ""},
		{"echo 'a && git diff'", ""},
		{"apt install jq", ""},            // "sudo apt" names the wrapper
		{"/usr/local/bin/tool run x", ""}, // the prefix names a path
		{"nice -n 5 git diff", ""},        // nice is no wrapper here: its options would be taken as the command
		{"terraform -chdir=x plan", ""},   // words in another order
		{"gitx diff", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			if got := PassthroughPrefix(tt.command, prefixes); got != tt.want {
				t.Errorf("PassthroughPrefix(%q) = %q, want %q", tt.command, got, tt.want)
			}
		})
	}
	if got := PassthroughPrefix("git diff", nil); got != "" {
		t.Errorf("no prefixes matched %q", got)
	}
	if got := PassthroughPrefix("git diff", []string{"''", " "}); got != "" {
		t.Errorf("an empty prefix matched: %q", got)
	}
}

// TestHookOffAndPassthrough: a real payload that the hook condenses passes
// through untouched, with nothing saved, when the config turns the hook off
// or lists its command; a prefix that does not match changes nothing.
func TestHookOffAndPassthrough(t *testing.T) {
	ctx := context.Background()
	env := func(dir string) func(string) string {
		return func(k string) string { return map[string]string{"HOME": dir, "XDG_CACHE_HOME": dir}[k] }
	}
	// optionsFor returns the options of a config file, saving into dir.
	optionsFor := func(t *testing.T, file, dir string) Options {
		t.Helper()
		c, err := config.Parse(strings.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		o, err := OptionsFromConfig(c.Hooks, env(dir))
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	condensed := 0
	for _, c := range loadCases(t) {
		if c.Payload == nil {
			continue
		}
		in := readPayload(t, c.Payload)
		baseDir := t.TempDir()
		base := optionsFor(t, "", baseDir)
		want, err := Hook(ctx, in, base)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if want == nil {
			continue // passes through anyway
		}
		condensed++
		first := strings.Fields(c.Req.Command)[0]
		t.Run(c.Name, func(t *testing.T) {
			for _, tt := range []struct {
				name, file string
				pass       bool
			}{
				{"off", "[hooks]\nposttooluse = false\n", true},
				{"off with a prefix too", "[hooks]\nposttooluse = false\noutput_passthrough = [\"nomatch\"]\n", true},
				{"its program listed", fmt.Sprintf("[hooks]\noutput_passthrough = [\"terraform plan\", %q]\n", first), true},
				{"its whole command listed", fmt.Sprintf("[hooks]\noutput_passthrough = [%q]\n", c.Req.Command), true},
				{"after cd", fmt.Sprintf("[hooks]\noutput_passthrough = [%q]\n", first), true},
				{"other prefixes", "[hooks]\noutput_passthrough = [\"terraform plan\", \"" + first + "x\"]\n", false},
				{"on explicitly", "[hooks]\nposttooluse = true\n", false},
			} {
				t.Run(tt.name, func(t *testing.T) {
					dir := baseDir // the same path, so the same header and extract
					if tt.pass {
						dir = t.TempDir() // to see that nothing is saved
					}
					opts := optionsFor(t, tt.file, dir)
					in := in
					if tt.name == "after cd" {
						p := bytes.Replace(c.Payload, []byte(`"command": "`), []byte(`"command": "cd /tmp && `), 1)
						if bytes.Equal(p, c.Payload) {
							t.Fatal("no command field found to prefix")
						}
						in = readPayload(t, p)
					}
					got, err := Hook(ctx, in, opts)
					if err != nil {
						t.Fatal(err)
					}
					var saved []os.DirEntry
					if tt.pass {
						saved, _ = os.ReadDir(opts.OutputDir)
					}
					switch {
					case tt.pass && (got != nil || len(saved) != 0):
						t.Errorf("want pass-through and nothing saved: %d bytes out, %d files saved", len(got), len(saved))
					case !tt.pass && !bytes.Equal(got, want):
						t.Errorf("a prefix that does not match changed the answer")
					}
				})
			}
		})
	}
	if condensed < 10 {
		t.Fatalf("only %d real payloads condensed; the test needs condensed ones", condensed)
	}
}

// TestOptionsFromConfigOff: a disabled hook needs no cache directory, so a
// missing HOME is no error.
func TestOptionsFromConfigOff(t *testing.T) {
	off := false
	o, err := OptionsFromConfig(config.Hooks{PostToolUse: &off, OutputPassthrough: []string{"x"}}, func(string) string { return "" })
	if err != nil || !o.Disabled {
		t.Fatalf("got %+v, %v", o, err)
	}
	o, err = OptionsFromConfig(config.Hooks{OutputPassthrough: []string{"git diff"}}, func(k string) string { return map[string]string{"HOME": "/h"}[k] })
	if err != nil || o.Disabled || len(o.Passthrough) != 1 || o.Passthrough[0] != "git diff" {
		t.Fatalf("got %+v, %v", o, err)
	}
}

// FuzzPassthroughPrefix: any command line, however its quotes and
// substitutions nest or fail to close, is split without a panic, and a
// prefix that is the whole command matches it.
func FuzzPassthroughPrefix(f *testing.F) {
	for _, s := range []string{`echo "$(git diff)"`, "echo \"`x`\"", `"$(`, "\"`", `a "$( "$( ) " )"`, "if x; then y; fi", `\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		PassthroughPrefix(command, []string{"git diff", "make"})
		if words := shell.Commands(command); len(words) == 1 && len(words[0]) > 0 && !wrappers[words[0][0]] && !isAssignment(words[0][0]) {
			if got := PassthroughPrefix(command, []string{command}); got == "" && !strings.ContainsAny(command, "\"'\\`$()|&;<>\n\t{}!#") {
				t.Errorf("command %q does not match itself", command)
			}
		}
	})
}
