package ftsquery

import (
	"slices"
	"testing"
)

func TestPhraseTokens(t *testing.T) {
	for _, c := range []struct {
		term string
		want []string
	}{
		{`"enablequickcustomization"`, []string{"enablequickcustomization"}},
		{`"os path join"`, []string{"os", "path", "join"}},
		{TextColumns + `"plugin"`, []string{"plugin"}},
		{`"Café ""au"" lait"`, []string{"cafe", "au", "lait"}},
		{`plain`, nil},
		{`""`, nil},
	} {
		got := PhraseTokens(c.term)
		if !slices.Equal(got, c.want) {
			t.Errorf("PhraseTokens(%q) = %q, want %q", c.term, got, c.want)
		}
	}
}

func TestPhraseCounter(t *testing.T) {
	pc := NewPhraseCounter([][]string{{"a", "a"}, {"getwidget"}, {"os", "path", "join"}, nil})
	for _, c := range []struct {
		text string
		want []uint32
	}{
		{"a a a", []uint32{2, 0, 0, 0}},
		{"A, a — a", []uint32{2, 0, 0, 0}},
		{"GetWidget getWidgets get_widget getwidget", []uint32{0, 2, 0, 0}},
		{"GetWidget getWidgets get_widget getwídget", []uint32{0, 2, 0, 0}},
		{"os.path.join(os, path, join) os path os path join", []uint32{0, 0, 3, 0}},
		{"os path\njoin", []uint32{0, 0, 1, 0}},
		{"", []uint32{0, 0, 0, 0}},
	} {
		got := make([]uint32, 4)
		if pc.Count(c.text, got); !slices.Equal(got, c.want) {
			t.Errorf("Count(%q) = %v; want %v", c.text, got, c.want)
		}
	}
}

// FuzzPhraseCounter checks that a phrase's count equals the count of its
// token runs found by a plain scan, on any text.
func FuzzPhraseCounter(f *testing.F) {
	f.Add("a a a b a", "a b")
	f.Add("Ünïcode über Über", "uber")
	f.Add("GetWidget, getWidgets (getwidget)", "getwidget")
	f.Add("x os.Path..join os path  join os", "OS path join")
	f.Fuzz(func(t *testing.T, text, phrase string) {
		p := PhraseTokens(`"` + phrase + `"`)
		if len(p) == 0 {
			return
		}
		var toks []string
		Tokens(text, func(b []byte) { toks = append(toks, string(b)) })
		want := uint32(0)
		for i := 0; i+len(p) <= len(toks); i++ {
			if slices.Equal(toks[i:i+len(p)], p) {
				want++
			}
		}
		got := make([]uint32, 1)
		if NewPhraseCounter([][]string{p}).Count(text, got); got[0] != want {
			t.Errorf("Count(%q, %q) = %d; want %d", text, p, got[0], want)
		}
	})
}

func TestLowerASCII(t *testing.T) {
	var all []byte
	for b := 0; b < 0x80; b++ {
		all = append(all, byte(b))
	}
	for _, s := range []string{"", "A", "Hello, World! @[`{ AZaz09", string(all), string(all[3:]), "abc\x80def", "ABCDEFGH\xc3\xa9"} {
		got, ok := lowerASCII(nil, s)
		wantOK := isASCIIRef(s)
		if ok != wantOK {
			t.Errorf("lowerASCII(%q) ascii = %v", s, ok)
			continue
		}
		if ok && string(got) != lowerRef(s) {
			t.Errorf("lowerASCII(%q) = %q", s, got)
		}
	}
}

func isASCIIRef(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func lowerRef(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func TestPhraseCounterCountOnly(t *testing.T) {
	pc := NewPhraseCounter([][]string{{"a"}, {"b"}, {"a", "b"}})
	got := []uint32{7, 7, 7}
	pc.CountOnly("a b a b", []int{0, 2}, got)
	if want := []uint32{9, 7, 9}; !slices.Equal(got, want) {
		t.Errorf("CountOnly of phrases 0 and 2 = %v, want %v (phrase 1 untouched)", got, want)
	}
}
