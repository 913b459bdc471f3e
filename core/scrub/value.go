package scrub

import (
	"encoding/base64"
	"math"
	"strings"
	"sync"
)

// marker is the prefix of every redaction; text inside a marker is opaque.
const marker = "[REDACTED:"

// entropy returns the Shannon entropy of s in bits per byte (0 for "").
// Random base62 of 32 bytes scores about 4.7, random hex about 3.7,
// "xxxxxxxx" 0 and English words about 2.5-3. It uses
// H = log2(n) - (1/n) * sum(c * log2 c) over the byte counts c, with
// c*log2(c) from a table for strings up to 512 bytes.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]uint16
	if len(s) > len(cLogC) {
		s = s[:len(cLogC)]
	}
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	tbl := cLogCTable()
	sum := 0.0
	for _, c := range counts {
		sum += tbl[c]
	}
	n := float64(len(s))
	return math.Log2(n) - sum/n
}

var (
	cLogC     [512]float64
	cLogCOnce sync.Once
)

func cLogCTable() *[512]float64 {
	cLogCOnce.Do(func() {
		for c := 2; c < len(cLogC); c++ {
			cLogC[c] = float64(c) * math.Log2(float64(c))
		}
	})
	return &cLogC
}

// containsFold reports whether s contains sub, ignoring ASCII case; sub must
// be lower case.
func containsFold(s, sub string) bool {
	if len(sub) == 0 {
		return true
	}
	first := sub[0]
	for i := 0; i+len(sub) <= len(s); i++ {
		if lowerASCII(s[i]) != first {
			continue
		}
		j := 1
		for j < len(sub) && lowerASCII(s[i+j]) == sub[j] {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}

// charClasses reports which of lower case, upper case, digit and other
// (symbol) bytes occur in s.
func charClasses(s string) (lower, upper, digit, symbol bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z':
			upper = true
		case '0' <= c && c <= '9':
			digit = true
		default:
			symbol = true
		}
	}
	return
}

func count(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return s != ""
}

func isBase64Char(c byte) bool {
	return isAlnum(c) || c == '+' || c == '/' || c == '=' || c == '-' || c == '_'
}

func isBase64(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isBase64Char(s[i]) {
			return false
		}
	}
	return s != ""
}

// longestRun returns the length of the longest run of one repeated byte.
func longestRun(s string) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i] == s[i-1] {
			run++
		} else {
			run = 1
		}
		best = max(best, run)
	}
	return best
}

// placeholderWords are substrings (lower case) that mark a value as a
// documentation placeholder rather than a credential.
var placeholderWords = []string{
	"example", "your", "placeholder", "changeme", "change_me", "change-me",
	"redacted", "dummy", "sample", "xxxx", "****", "....", "<", ">", "${", "{{",
	"insert", "replace", "fixme", "todo", "•",
}

// placeholderValues are whole values (lower case) that are never secrets.
var placeholderValues = map[string]bool{
	"password": true, "passwd": true, "secret": true, "token": true, "null": true,
	"nil": true, "none": true, "true": true, "false": true, "undefined": true,
	"empty": true, "string": true, "str": true, "bytes": true, "required": true,
	"optional": true, "hidden": true, "masked": true, "n/a": true, "tbd": true,
	"value": true, "key": true, "apikey": true, "api_key": true, "api-key": true,
	"mypassword": true, "my_password": true, "yourpassword": true, "pass": true,
	"secretkey": true, "secret_key": true, "password123": true, "test": true,
}

// isPlaceholder reports whether v is a template variable, a documentation
// placeholder, an existing redaction, or too uniform to be a credential.
func isPlaceholder(v string) bool {
	if v == "" || strings.Contains(v, marker) {
		return true
	}
	switch v[0] {
	case '$', '%', '<', '{', '!', '&', '*', '@', '#':
		// $VAR ${VAR} %VAR% <your-key> {placeholder} !vault &anchor *alias
		// @param #{var}
		return true
	}
	if len(v) <= 16 && placeholderValues[strings.ToLower(v)] {
		return true
	}
	for _, w := range placeholderWords {
		if containsFold(v, w) {
			return true
		}
	}
	if strings.Contains(v, "$(") || strings.Contains(v, "%(") || strings.Contains(v, "%s") {
		return true
	}
	return longestRun(v) >= 6
}

// isIdentifierLike reports whether v reads as a program identifier or a word
// (snake_case, CONST_CASE, camelCase, PascalCase, kebab-case, optionally
// followed by digits) rather than a random string: such values are variable
// names, types or prose, e.g. OPENAI_API_KEY, accessToken, String, read-only.
func isIdentifierLike(v string) bool {
	// Strip trailing digits: name2, key_v1 stays a name.
	return isWords(strings.TrimRight(v, "0123456789"))
}

// isWords reports whether v is made of word-like segments only (see
// isIdentifierLike), with no digits at all.
func isWords(t string) bool {
	if t == "" {
		return false
	}
	segs := splitWords(t)
	if len(segs) == 0 {
		return false
	}
	for _, s := range segs {
		if !isWordish(s) {
			return false
		}
	}
	return true
}

// splitWords splits v at '_', '-', '.', and lower-to-upper case changes.
// It returns nil when v contains any byte other than letters and those
// separators.
func splitWords(v string) []string {
	var segs []string
	start := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '_' || c == '-' || c == '.':
			if i > start {
				segs = append(segs, v[start:i])
			}
			start = i + 1
		case 'A' <= c && c <= 'Z':
			if i > start && 'a' <= v[i-1] && v[i-1] <= 'z' {
				segs = append(segs, v[start:i])
				start = i
			}
		case 'a' <= c && c <= 'z':
		default:
			return nil
		}
	}
	if start < len(v) {
		segs = append(segs, v[start:])
	}
	return segs
}

// isWordish reports whether a letters-only segment looks like a word: all
// lower case, all upper case, or Capitalized, and pronounceable (contains a
// vowel unless very short).
func isWordish(s string) bool {
	lower, upper, _, _ := charClasses(s)
	if lower && upper {
		// Capitalized: one upper case letter then lower case.
		if !('A' <= s[0] && s[0] <= 'Z') {
			return false
		}
		_, up, _, _ := charClasses(s[1:])
		if up {
			return false
		}
	}
	if len(s) <= 3 {
		return true
	}
	return strings.ContainsAny(strings.ToLower(s), "aeiouy")
}

// isCodeLike reports whether an unquoted value is an expression that reads a
// secret rather than holding it: a call, an index, a dotted member access
// (config.password, os.environ), or a path.
func isCodeLike(v string) bool {
	if strings.ContainsAny(v, "([") { // a call or an index; a lone ')' may be a symbol in a password
		return true
	}
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.HasPrefix(v, "~/") {
		return true
	}
	if strings.Contains(v, "://") {
		return true
	}
	if strings.Contains(v, ".") {
		parts := strings.Split(v, ".")
		for _, p := range parts {
			t := strings.TrimRight(p, "0123456789")
			if t == "" || splitWords(t) == nil {
				return false
			}
		}
		return true
	}
	return false
}

// looksRandom reports whether v looks like a machine-generated credential:
// at least minLen bytes, at least two of lower/upper/digit, entropy of at
// least minBits bits per byte, not identifier-like; or hex of at least 16
// bytes with digits and letters.
func looksRandom(v string, minLen int, minBits float64) bool {
	if len(v) < minLen {
		return false
	}
	lower, upper, digit, _ := charClasses(v)
	if isHex(v) && len(v) >= 16 && digit && (lower || upper) {
		return entropy(v) >= 2.5
	}
	if count(lower, upper, digit) < 2 {
		return false
	}
	if isIdentifierLike(v) {
		return false
	}
	return entropy(v) >= minBits
}

// looksLikePassword reports whether v, assigned to a password-like name, is
// a literal password: 6 bytes or more, not a placeholder, not made of words
// only (a digit is enough: hunter2 counts) and mixing at least two of
// lower/upper/digit/symbol (or 12 bytes or more).
func looksLikePassword(v string) bool {
	if len(v) < 6 || isPlaceholder(v) || isWords(v) {
		return false
	}
	lower, upper, digit, symbol := charClasses(v)
	if !lower && !upper {
		// digits and symbols only: PINs, dates, versions.
		return false
	}
	return count(lower, upper, digit, symbol) >= 2 || len(v) >= 12
}

// decodesToUserPass reports whether v is base64 of "user:password".
func decodesToUserPass(v string) bool {
	var b []byte
	var err error
	if strings.HasSuffix(v, "=") || len(v)%4 == 0 {
		b, err = base64.StdEncoding.DecodeString(v)
	} else {
		b, err = base64.RawStdEncoding.DecodeString(v)
	}
	if err != nil || len(b) < 3 {
		return false
	}
	colon := -1
	for i, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
		if c == ':' && colon < 0 {
			colon = i
		}
	}
	return colon > 0 && colon < len(b)-1
}
