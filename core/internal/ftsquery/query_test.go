package ftsquery

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestTerms(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"empty", "  ", nil},
		{"words", "Recurring Tasks", []string{`"recurring"`, `"tasks"`}},
		{"stop words dropped", "how do I toggle the task", []string{`"toggle"`, `"task"`}},
		{"only stop words kept", "what is it", []string{`"what"`, `"is"`, `"it"`}},
		{"identifier as phrase and tokens", "os.path.join", []string{`"os path join"`, `"os"`, `"path"`, `"join"`}},
		{"snake case", "_rrf_fuse", []string{`"rrf fuse"`, `"rrf"`, `"fuse"`}},
		{"syntax is quoted", `NEAR(a b) "x" -y *`, []string{`"near a"`, `"near"`, `"b"`, `"x"`, `"y"`}},
		{"duplicates once", "tasks Tasks TASKS", []string{`"tasks"`}},
		{"cjk bigrams", "東京都庁", []string{`cjk:"東京 京都 都庁"`}},
		{"cjk lone character", "猫", []string{`cjk:"猫"`}},
		{"mixed cjk and latin", "Go言語", []string{`cjk:"言語"`, `"go"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Terms(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("Terms(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestTermsCap(t *testing.T) {
	var words []string
	for i := 0; i < 2*MaxTerms; i++ {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	got := Terms(strings.Join(words, " "))
	if len(got) != MaxTerms || got[0] != `"w0"` || got[MaxTerms-1] != fmt.Sprintf(`"w%d"`, MaxTerms-1) {
		t.Fatalf("Terms of %d words: %d terms, first %s", len(words), len(got), got[0])
	}
}

func TestCJKBigrams(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"plain text", ""},
		{"東京都", "東京 京都"},
		{"東京 and 大阪", "東京\n大阪"},
		{"猫", "猫"},
	} {
		if got := CJKBigrams(tc.text); got != tc.want {
			t.Errorf("CJKBigrams(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Hello, World!", []string{"hello", "world"}},
		{"Café naïve", []string{"cafe", "naive"}},
		{"snake_case x2", []string{"snake", "case", "x2"}},
		{"", nil},
	} {
		var got []string
		Tokens(tc.text, func(tok []byte) { got = append(got, string(tok)) })
		if !slices.Equal(got, tc.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestSingleToken(t *testing.T) {
	for _, tc := range []struct {
		term string
		tok  string
		ok   bool
	}{
		{`"tasks"`, "tasks", true},
		{`"Café"`, "cafe", true},
		{`"os path join"`, "", false},
		{`cjk:"東京 京都"`, "", false},
		{`"say ""hi"""`, "", false},
	} {
		tok, ok := SingleToken(tc.term)
		if ok != tc.ok || (ok && tok != tc.tok) {
			t.Errorf("SingleToken(%q) = %q, %v; want %q, %v", tc.term, tok, ok, tc.tok, tc.ok)
		}
	}
}

func BenchmarkTerms(b *testing.B) {
	q := "how do I configure recurring tasks with a due date in the obsidian tasks plugin os.path.join"
	for i := 0; i < b.N; i++ {
		Terms(q)
	}
}
