package compress

import (
	"strings"
	"testing"
)

// refScanWords is the reference implementation of scanWords: it
// lowercases the ASCII words of line, skipping path-like tokens,
// and looks them and their bigrams up in the vocabulary. A line is a
// summary when it opens with a verdict word, with "up to date", "fetched"
// or "summary", with a count lead word and a number, when a number is
// followed by a counted word or phrase, or when it is a banner such as
// pytest's "=== 1 failed, 2 passed in <dur> ===".
func refScanWords(line string) lineWords {
	var lw lineWords
	var arena [512]byte
	type word struct {
		s, e  int
		flags uint16
	}
	var refs [maxScanWords]word
	n, used := 0, 0
	get := func(k int) []byte { return arena[refs[k].s:refs[k].e] }

	for i := 0; i < len(line) && n < maxScanWords; {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		start := i
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		tok := line[start:i]
		if tok == "" {
			break
		}
		if strings.ContainsAny(tok, "/\\") || looksLikeFile(tok) {
			if n > 0 && refs[n-1].e > refs[n-1].s {
				refs[n] = word{} // a path breaks phrases
				n++
			}
			continue
		}
		for j := 0; j < len(tok) && n < maxScanWords; {
			for j < len(tok) && !isAlnum(tok[j]) {
				j++
			}
			ws := used
			for j < len(tok) && isAlnum(tok[j]) {
				if used < len(arena) {
					c := tok[j]
					if c >= 'A' && c <= 'Z' {
						c += 'a' - 'A'
					}
					arena[used] = c
					used++
				}
				j++
			}
			if used > ws {
				var f uint16
				if w := arena[ws:used]; true {
					f = vocab[string(w)]
				}
				refs[n] = word{s: ws, e: used, flags: f}
				n++
			}
		}
	}

	var pbuf [64]byte
	phrase := func(a, b int) uint16 {
		if refs[b].flags&vPhrase == 0 || refs[a].e == refs[a].s {
			return 0
		}
		p := append(append(append(pbuf[:0], get(a)...), ' '), get(b)...)
		return phrases[string(p)]
	}
	for k := 0; k < n; k++ {
		f := refs[k].flags
		if f&vErr != 0 || k > 0 && phrase(k-1, k)&vErr != 0 {
			lw.err = true
		}
		if f&vWarn != 0 {
			lw.warn = true
		}
		if w := get(k); len(w) > 7 && string(w[len(w)-7:]) == "warning" {
			lw.warn = true // DeprecationWarning, UserWarning
		}
		if w := get(k); !lw.exception && len(w) > 4 {
			for _, suf := range exceptionSuffixes {
				if len(w) >= len(suf) && string(w[len(w)-len(suf):]) == suf {
					lw.exception = true
					break
				}
			}
		}
		if !lw.summary && isNumberBytes(get(k)) && k+1 < n &&
			(refs[k+1].flags&vCount != 0 || k+2 < n && phrase(k+1, k+2)&vCount != 0) {
			lw.summary = true
		}
	}
	if n > 0 && !lw.summary {
		first := string(get(0))
		f := refs[0].flags
		switch {
		case f&vVerdict != 0 && firstTokenIs(line, first) && !(first == "ok" && n > 1 && isNumberBytes(get(1))), // not TAP's "ok 3 - name"
			first == "fetched" || first == "summary",
			first == "up" && n > 2 && string(get(1)) == "to" && string(get(2)) == "date",
			f&vCountLead != 0 && n > 1 && isNumberBytes(get(1)):
			lw.summary = true
		}
	}
	if !lw.summary && isBanner(line) {
		for k := 0; k < n; k++ {
			switch string(get(k)) {
			case "passed", "failed", "error", "errors":
				lw.summary = true
			}
		}
	}
	return lw
}

func TestScanWordsMatchesReference(t *testing.T) {
	lines := append(allCaseLines(t), "", "a/b error", "x.go: failed", "3 passed", "3 a/b passed", "ok 3 - x", "=== 1 failed ===",
		strings.Repeat("word ", 100), strings.Repeat("x", 600)+" error", "KeyError: x", "DeprecationWarning: y", "up to date", "could not find")
	for _, l := range lines {
		if got, want := scanWords(l), refScanWords(l); got != want {
			t.Errorf("scanWords(%q) = %+v, reference %+v", l, got, want)
		}
	}
}

func FuzzScanWords(f *testing.F) {
	for _, s := range []string{"18 passing, 2 failing", "src/x.go:1: error: could not", "=== 1 failed, 2 passed ===", "Added 3 packages"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := scanWords(s), refScanWords(s); got != want {
			t.Fatalf("scanWords(%q) = %+v, reference %+v", s, got, want)
		}
	})
}
