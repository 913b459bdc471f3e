package ftsquery

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Tokens calls fn with each token of text as FTS5's unicode61 tokenizer
// with remove_diacritics 2 forms it, before stemming: maximal runs of
// letters, numbers and private-use characters (combining marks continue a
// token and are dropped), lowercased, with diacritics removed. The impact
// index only trusts terms whose document and instance counts agree with
// FTS5's own vocabulary, so a difference here costs speed, never
// correctness.
//
// fn must not keep tok: its bytes are reused.
func Tokens(text string, fn func(tok []byte)) {
	buf := make([]byte, 0, 64)
	ascii := true
	emit := func() {
		if len(buf) == 0 {
			return
		}
		if ascii {
			fn(buf)
		} else {
			fn([]byte(foldDiacritics(string(buf))))
		}
		buf, ascii = buf[:0], true
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			if l := asciiFold[c]; l != 0 {
				buf = append(buf, l)
			} else {
				emit()
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r):
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			ascii = false
		case unicode.Is(unicode.Mn, r) && len(buf) > 0:
			// a diacritic inside a token: dropped by remove_diacritics
		default:
			emit()
		}
	}
	emit()
}

// asciiFold maps ASCII letters and digits to their lowercase form and every
// other ASCII byte to 0 (a separator), as unicode61 does.
var asciiFold = func() (t [utf8.RuneSelf]byte) {
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c
	}
	for c := byte('a'); c <= 'z'; c++ {
		t[c], t[c-32] = c, c
	}
	return t
}()

// foldDiacritics removes combining marks after canonical decomposition
// ("é" → "e") and recomposes what is left.
func foldDiacritics(s string) string {
	d := norm.NFD.String(s)
	out := make([]rune, 0, len(d))
	for _, r := range d {
		if !unicode.Is(unicode.Mn, r) {
			out = append(out, r)
		}
	}
	return norm.NFC.String(string(out))
}
