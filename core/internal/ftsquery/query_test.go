package ftsquery

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultctx/vaultctx/internal/testkit"

	"github.com/vaultctx/vaultctx/core/internal/textan"
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
		{"quoted phrase keeps stop words", `"will self" novel`, []string{`"will self"`, `"novel"`}},
		{"curly quotes", `“Will Self”`, []string{`"will self"`}},
		{"unclosed quote is a separator", `"will self`, []string{`"self"`}},
		{"quoted identifier", `"os.path"`, []string{`"os path"`}},
		{"hyphen join", "plug-in", []string{`"plug in"`, `"plug"`, TextColumns + `"plugin"`}},
		{"hyphen join with stop word part", "A-Company", []string{`"a company"`, `"company"`, TextColumns + `"acompany"`}},
		{"no one-letter fragment", "mbstowcs_s", []string{`"mbstowcs s"`, `"mbstowcs"`}},
		{"one-letter word kept", "C", []string{`"c"`}},
		{"katakana with long vowel mark", "ヒーロー", []string{`cjk:"ヒー ーロ ロー"`}},
		{"halfwidth katakana", "ｺｰﾋｰ", []string{`cjk:"ｺｰ ｰﾋ ﾋｰ"`}},
		{"spacing sound mark folded", "か゛", []string{`cjk:"かﾞ"`}},
		{"emoji", "📅 due", []string{`cjk:"emoji128197"`, `"due"`}},
		{"emoji with variation selector", "✔️", []string{`cjk:"emoji10004"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Terms(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("Terms(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestExactTerms(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"how do I customize the toolbar", nil},
		{"EnableQuickCustomization toolbar", []string{`"enablequickcustomization"`}},
		{"mbstowcs_s buffer", []string{`"mbstowcs s"`, `"mbstowcs"`}},
		{`"will self" novel`, []string{`"will self"`}},
		{"C2280 deleted function", []string{`"c2280"`}},
		{"Set-VMProcessor", []string{`"set vmprocessor"`, `"set"`, `"vmprocessor"`}},
	} {
		if got := ExactTerms(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("ExactTerms(%q) = %q, want %q", tc.text, got, tc.want)
		}
		terms := Terms(tc.text)
		for _, e := range ExactTerms(tc.text) {
			if !slices.Contains(terms, e) {
				t.Errorf("ExactTerms(%q) has %s, which Terms lacks", tc.text, e)
			}
		}
	}
}

func TestHyphenJoins(t *testing.T) {
	for _, tc := range []struct {
		word string
		want []string
	}{
		{"plug-in", []string{"plugin"}},
		{"e-mail,", []string{"email"}},
		{"(A-Company's)", []string{"acompany"}},
		{"Get-ChildItem", []string{"getchilditem"}},
		{"well-known-name", []string{"wellknownname"}},
		{"a--b", nil},
		{"-Path", nil},
		{"plug-", nil},
		{"2024-01-31", nil},
		{"x86-64", []string{"x8664"}},
		{"plug‐in", []string{"plugin"}}, // U+2010
		{"東京-Tokyo", nil},
		{"one-two/three-four", []string{"onetwo", "threefour"}},
	} {
		if got := HyphenJoins(tc.word); !slices.Equal(got, tc.want) {
			t.Errorf("HyphenJoins(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}

func TestExtras(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"plain text", ""},
		{"我们使用Docker部署服务，配置文件是config.yaml，端口8080。",
			"我们 们使 使用\n部署 署服 服务\n配置 置文 文件 件是\n端口\ndocker config yaml 8080"},
		{"a plug-in and an e-mail", "plugin email"},
		{"- [ ] task 📅 2024-01-31 ✅", "emoji128197 emoji9989"},
		{"ヒーロー", "ヒー ーロ ロー"},
	} {
		if got := Extras(tc.text); got != tc.want {
			t.Errorf("Extras(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// FuzzTerms: every term of any text is one FTS5 string, optionally with
// the cjk column filter, with its quotes doubled, so no text is ever read
// as FTS5 syntax; and ExactTerms is a subset of Terms.
func FuzzTerms(f *testing.F) {
	for _, s := range []string{`"will self" x`, "plug-in", "mbstowcs_s", "ヒーロー📅", `NEAR(a b) "x" -y *`, `"a""b"`, "“x”", `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		terms := Terms(s)
		for _, term := range terms {
			body := strings.TrimPrefix(strings.TrimPrefix(term, "cjk:"), TextColumns)
			if len(body) < 2 || body[0] != '"' || body[len(body)-1] != '"' || strings.Contains(strings.ReplaceAll(body[1:len(body)-1], `""`, ""), `"`) {
				t.Fatalf("Terms(%q) has a malformed term %q", s, term)
			}
		}
		for _, e := range ExactTerms(s) {
			if !slices.Contains(terms, e) {
				t.Fatalf("ExactTerms(%q) has %s, which Terms lacks", s, e)
			}
		}
	})
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

// extrasReference is Extras written plainly, word by word with
// strings.Fields: the reference of Extras' one-pass scan.
func extrasReference(text string) string {
	var lines []string
	if b := CJKBigrams(text); b != "" {
		lines = append(lines, b)
	}
	var joins, emoji []string
	for _, word := range strings.Fields(text) {
		if toks, cjk := SplitTokens(word); len(cjk) > 0 && len(toks) > 0 {
			lines = append(lines, strings.Join(toks, " "))
		}
		for _, r := range word {
			if textan.Emoji(r) {
				emoji = append(emoji, EmojiToken(r))
			}
		}
		joins = append(joins, HyphenJoins(word)...)
	}
	for _, l := range []string{strings.Join(joins, " "), strings.Join(emoji, " ")} {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

var extrasSeeds = []string{
	"", "plain", "plug-in e-mail", "我们使用Docker部署服务", "📅 2024-01-31 ✅ done", "a\u3000b-c\u00a0d‐e", "x-\ty", "-a- b--c",
	"ヒーロー and コーヒー-Latte", "\xff-\xfe", "Get-ChildItem -Path C:\\ -Recurse",
}

func TestExtrasIsReference(t *testing.T) {
	seeds := extrasSeeds
	for _, dir := range []string{"corpora/edge", "corpora/obsidian/tasks-demo-vault"} {
		root := testkit.SharedDir(dir)
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				b, _ := os.ReadFile(p)
				seeds = append(seeds, string(b))
			}
			return nil
		})
	}
	b, _ := os.ReadFile(testkit.SharedDir("corpora/linked/flancia-garden/music I like.md"))
	seeds = append(seeds, string(b))
	if len(seeds) < 30 {
		t.Fatalf("only %d texts", len(seeds))
	}
	for _, s := range seeds {
		if got, want := Extras(s), extrasReference(s); got != want {
			t.Errorf("Extras(%.60q) = %q, reference %q", s, got, want)
		}
	}
}

func FuzzExtras(f *testing.F) {
	for _, s := range extrasSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Extras(s), extrasReference(s); got != want {
			t.Fatalf("Extras(%q) = %q, reference %q", s, got, want)
		}
	})
}
