package textan

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSearchableTerms(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"yes", nil},
		{"ok go on", nil},
		{"Thanks, please continue!", nil},
		{"Why does the build fail on the linker step?", []string{"build", "fail", "linker", "step"}},
		{"wcstombs_s vs WideCharToMultiByte wcstombs", []string{"wcstombs", "vs", "widechartomultibyte"}},
		{"Ünïcode NFC ünïcode", []string{"ünïcode", "nfc"}},
		{"x y z 42", []string{"42"}},
	} {
		if got := SearchableTerms(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("SearchableTerms(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTerms(t *testing.T) {
	got := Terms("wcstombs_s vs os.path, x x")
	want := []string{"wcstombs", "s", "vs", "os", "path", "x", "x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Terms = %q, want %q", got, want)
	}
}

// TermSeq is a fast path of Terms: it must yield exactly Terms' terms,
// including where lowercasing changes a rune's class or length (Kelvin
// sign, dotted capital I) and on invalid UTF-8.
func TestTermSeqIsTerms(t *testing.T) {
	for _, s := range termSeeds {
		checkTermSeq(t, s)
	}
}

var termSeeds = []string{
	"", " ", "wcstombs_s vs os.path, x x", "Get-ChildItem [[-Path] <string[]>]",
	"Ünïcode NFC ünïcode", "\u212a KELVIN", "İstanbul İİ", "abc\xffdef\xc3", "漢字かな 123",
	"ÀÉÎ-õü_ß", "\u0130x", "x\u0307y",
}

func checkTermSeq(t *testing.T, s string) {
	t.Helper()
	var got []string
	for term := range TermSeq(s) {
		got = append(got, term)
	}
	if want := Terms(s); !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
		t.Errorf("TermSeq(%q) = %q, Terms = %q", s, got, want)
	}
	for range TermSeq(s) {
		break // an early stop must not panic
	}
}

func FuzzTermSeq(f *testing.F) {
	for _, s := range termSeeds {
		f.Add(s)
	}
	f.Fuzz(checkTermSeq)
}

// Before textan, the search list lived in core/store/fts.go and the gating
// list in core/hookio/terms.go. These are those lists verbatim: StopWord
// must be the first exactly, and StopWord or Filler the second (plus
// "it's", which Terms can never return), so neither the BM25 query nor the
// gating changes.
const (
	oldSearchList = `a an and are as at be but by for if in into is it no not of on or
		such that the their then there these they this to was will with
		what how why when where which who whom does do did can could should would i you we my me
		your our from about have has had am been being its it's so than too very just`
	oldGatingList = `
a about above after again against all am an and any are aren as at be because been before being
below between both but by can cannot could couldn did didn do does doesn doing don down during each
few for from further had hadn has hasn have haven having he her here hers herself him himself his how
i if in into is isn it its itself just let me more most my myself no nor not of off on once only or
other ought our ours ourselves out over own same shan she should shouldn so some such than that the
their theirs them themselves then there these they this those through to too under until up very was
wasn we were weren what when where which while who whom why will with won would wouldn you your yours
yourself yourselves ll re ve im ive id youre thats theres whats lets also still even ever much many
really quite maybe perhaps etc via per
yes yeah yep yup no nope ok okay k kk sure fine great good nice cool thanks thank thx ty please pls
plz go ahead continue proceed next again done right alright well hi hello hey now then just do it
sounds lgtm agreed agree correct exactly got understood makes sense try retry keep going carry`
)

func TestStopLayersMatchOldLists(t *testing.T) {
	search, gating := wordSet(oldSearchList), wordSet(oldGatingList)
	gating["it's"] = true
	for w := range stopWords {
		if !search[w] {
			t.Errorf("StopWord(%q) but the search list lacks it", w)
		}
		if fillers[w] {
			t.Errorf("%q is both a stop word and a filler", w)
		}
	}
	for w := range fillers {
		if !gating[w] {
			t.Errorf("Filler(%q) but the gating list lacks it", w)
		}
	}
	for w := range search {
		if !StopWord(w) {
			t.Errorf("search list word %q is not a StopWord", w)
		}
	}
	for w := range gating {
		if !StopWord(w) && !Filler(w) {
			t.Errorf("gating list word %q is neither StopWord nor Filler", w)
		}
	}
}

func TestStemForContains(t *testing.T) {
	for in, want := range map[string]string{
		"indexes": "index", "indexing": "index", "logs": "logs", "errors": "error", "boxes": "boxe",
		"parsed": "pars", "used": "used", "class": "clas", "tests": "test", "go": "go", "": "",
	} {
		if got := StemForContains(in); got != want {
			t.Errorf("StemForContains(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStemForCompare(t *testing.T) {
	for in, want := range map[string]string{
		"installed": "install", "installing": "install", "installs": "install", "class": "class",
		"pass": "pass", "indexes": "indexe", "cats": "cat", "ing": "ing", "bed": "bed", "": "",
		// The cases of core/compress's TestStem, before the stemmer moved here.
		"packages": "package", "package": "package", "tests": "test", "go": "go", "fixes": "fixe", "passes": "passe",
	} {
		if got := StemForCompare(in); got != want {
			t.Errorf("StemForCompare(%q) = %q, want %q", in, got, want)
		}
		if got := string(StemForCompareBytes([]byte(in))); got != want {
			t.Errorf("StemForCompareBytes(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEstimateTokens(t *testing.T) {
	for _, s := range []string{"", "a", "abcd", "abcde", "ünïcode", strings.Repeat("漢", 9)} {
		runes := utf8.RuneCountInString(s)
		if got, want := EstimateTokens(s), (runes+3)/4; got != want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", s, got, want)
		}
		for n := 0; n < 5; n++ {
			if (EstimateTokens(s) <= n) != (runes <= CharBudget(n)) {
				t.Errorf("EstimateTokens(%q) <= %d disagrees with CharBudget", s, n)
			}
		}
	}
}

func ExampleSearchableTerms() {
	fmt.Println(SearchableTerms("Thanks! Why does the linker fail on wcstombs_s?"))
	// Output: [linker fail wcstombs]
}

func TestIdentifier(t *testing.T) {
	for w, want := range map[string]bool{
		"EnableQuickCustomization": true, "iPhone": true, "VMProcessor": true, "MFC": true, "Set-VMProcessor": true,
		"C2280": true, "x64": true, "mbstowcs_s": true, "os.path.join": true, "CWnd::Create": true, "std::vector": true,
		"p->next": true, "config.yaml": true,
		"Hello": false, "toolbar": false, "I": false, "end.": false, "note:": false, "plug-in": false, "2024-01-31": false,
		"_private": false, "(see": false, "": false,
	} {
		if got := Identifier(w); got != want {
			t.Errorf("Identifier(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestScripts(t *testing.T) {
	for _, r := range "漢かナヒー한ｰﾞﾟ゛゜々〆ｶ" {
		if !CJK(r) {
			t.Errorf("CJK(%q) = false", r)
		}
	}
	for _, r := range "aZ9-・。、 é" {
		if CJK(r) {
			t.Errorf("CJK(%q) = true", r)
		}
	}
	for _, r := range "📅✅⏫⏳🔁🛫➕⭐☀🙂" {
		if !Emoji(r) {
			t.Errorf("Emoji(%q) = false", r)
		}
	}
	for _, r := range "©°→│■a漢\uFE0F\u200D🏽" {
		if Emoji(r) {
			t.Errorf("Emoji(%q) = true", r)
		}
	}
}
