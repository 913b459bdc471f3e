package shell

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestPipelines(t *testing.T) {
	tests := []struct {
		line string
		want [][][]string
	}{
		{"a b | c && d; e & f\ng", [][][]string{{{"a", "b"}, {"c"}}, {{"d"}}, {{"e"}}, {{"f"}}, {{"g"}}}},
		{`echo "a | b" 'c;d' e\ f`, [][][]string{{{"echo", "a | b", "c;d", "e f"}}}},
		{`x "q\"uote" "\$HOME" "a\b"`, [][][]string{{{"x", `q"uote`, "$HOME", `a\b`}}}},
		{"cmd > out 2>&1 < in", [][][]string{{{"cmd"}}}},
		{"cmd >>log arg | tail -5 2>/dev/null", [][][]string{{{"cmd", "arg"}, {"tail", "-5"}}}},
		{"''", [][][]string{{{""}}}},
		{"  ;; && || ", nil},
		{"(cd x && cat f) || echo no", [][][]string{{{"cd", "x"}}, {{"cat", "f"}}, {{"echo", "no"}}}},
		{`echo "$(git diff | head)" done`, [][][]string{{{"git", "diff"}, {"head"}}, {{"echo", "$(git diff | head)", "done"}}}},
		{"echo \"`git log -p`\"", [][][]string{{{"git", "log", "-p"}}, {{"echo", "`git log -p`"}}}},
		{"a `b c` d", [][][]string{{{"a"}}, {{"b", "c"}}, {{"d"}}}},
		{"make -k 2>&1; echo exit=$?", [][][]string{{{"make", "-k"}}, {{"echo", "exit=$?"}}}},
		{"ls &>all.txt", [][][]string{{{"ls"}}}},
		{"a \\\n b", [][][]string{{{"a", "b"}}}},
	}
	for _, tt := range tests {
		if got := Pipelines(tt.line); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
			t.Errorf("Pipelines(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

// FuzzPipelines: any line, however its quotes and substitutions nest or
// fail to close, is split without a panic into non-empty stages, and
// Commands is Pipelines flattened.
func FuzzPipelines(f *testing.F) {
	for _, s := range []string{`echo "$(git diff)"`, "echo \"`x`\"", `"$(`, "\"`", `a "$( "$( ) " )"`, "if x; then y; fi", `\`, "a|b||c&&d&e", "2>&1 >"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var flat [][]string
		for _, p := range Pipelines(line) {
			if len(p) == 0 {
				t.Fatalf("%q: an empty pipeline", line)
			}
			for _, st := range p {
				if len(st) == 0 {
					t.Fatalf("%q: an empty stage", line)
				}
			}
			flat = append(flat, p...)
		}
		if got := Commands(line); !slices.EqualFunc(got, flat, slices.Equal[[]string]) {
			t.Fatalf("%q: Commands %q, Pipelines flattened %q", line, got, flat)
		}
		if !strings.ContainsAny(line, "\"'\\`$()|&;<>\n\t ") && line != "" {
			if got := Commands(line); len(got) != 1 || len(got[0]) != 1 || got[0][0] != line {
				t.Fatalf("a plain word %q splits into %q", line, got)
			}
		}
	})
}

func TestInputFile(t *testing.T) {
	for line, want := range map[string]string{
		"cat < core/x.go":         "core/x.go",
		"tr -d '\\r' <notes.txt":  "notes.txt",
		"sort 0< list | uniq":     "list",
		"cat <<'EOF'\nhi\nEOF":    "",
		"bash <<< 'echo hi'":      "",
		"diff <(ls a) <(ls b)":    "",
		"go test ./... 2>&1":      "",
		"wc -l < a.txt > out.txt": "a.txt",
	} {
		p := PipelinesWithRedirections(line)
		if got := InputFile(p[0][0]); got != want {
			t.Errorf("InputFile(%q) = %q, want %q (words %q)", line, got, want, p[0][0])
		}
	}
}
