package textan

import "strings"

// The two light suffix strippers below follow the spirit of step 1 of
// Porter's algorithm (M. F. Porter, "An algorithm for suffix stripping",
// Program 14(3), 1980) without being it. They differ on purpose, because
// they are used differently, and each is tuned for its use:
//
//   - StemForContains makes a probe that is looked for as a substring of a
//     hit's text: it also cuts "es" and keeps at least four letters, so the
//     probe stays specific ("indexes" gives "index", found in "indexing");
//   - StemForCompare makes a key that is compared for equality with the
//     keys of other tokens: it cuts only "ing", "ed" and "s", keeps at least
//     three letters, and leaves "ss" words alone ("class", "pass"), so that
//     "install", "installed" and "installing" share the key "install".

// StemForContains cuts the first of the suffixes "ing", "es", "s", "ed"
// that t ends with when more than three letters (bytes) remain, and returns
// t otherwise. It returns a prefix of t, meant to be searched for as a
// substring (the relevance floor's term matching). It is a matching aid,
// not a linguistic stemmer.
func StemForContains(t string) string {
	for _, suf := range []string{"ing", "es", "s", "ed"} {
		if len(t) > len(suf)+3 && strings.HasSuffix(t, suf) {
			return t[:len(t)-len(suf)]
		}
	}
	return t
}

// StemForCompare strips one common English inflection ("-ing", "-ed", "-s",
// tried in that order) when at least three letters (bytes) remain, but not
// the "s" of a word ending in "ss", so "install" matches "installed" and
// "installing". It returns a prefix of w, meant to be compared for
// equality with the stems of other tokens (the PostToolUse ranker's BM25).
func StemForCompare(w string) string {
	for _, suf := range []string{"ing", "ed", "s"} {
		if len(w) >= len(suf)+3 && w[len(w)-len(suf):] == suf {
			if suf == "s" && w[len(w)-2] == 's' { // "class", "pass"
				return w
			}
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// StemForCompareBytes is StemForCompare for a byte slice; it returns a
// subslice of w and does not allocate.
func StemForCompareBytes(w []byte) []byte {
	for _, suf := range []string{"ing", "ed", "s"} {
		if len(w) >= len(suf)+3 && string(w[len(w)-len(suf):]) == suf {
			if suf == "s" && w[len(w)-2] == 's' {
				return w
			}
			return w[:len(w)-len(suf)]
		}
	}
	return w
}
