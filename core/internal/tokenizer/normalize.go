package tokenizer

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"golang.org/x/text/unicode/norm"
)

// normalizer rewrites a piece of text; see huggingface/tokenizers normalizers.
type normalizer interface {
	normalize(s string) string
}

// bertNormalizer is BertNormalizer (normalizers/bert.rs): remove NUL, U+FFFD
// and control characters (Cc, Cf, Co except tab, LF, CR), map whitespace to a
// space, pad CJK ideographs with spaces, NFD + drop Mn marks, lowercase.
type bertNormalizer struct {
	clean, chinese, strip, lower bool
}

// isBertWhitespace is bert.rs is_whitespace: tab, LF, CR or White_Space.
func isBertWhitespace(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || unicode.IsSpace(r)
}

// isBertControl is bert.rs is_control: Cc, Cf or Co, except tab, LF, CR.
func isBertControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	if r < 0x80 {
		return r < 0x20 || r == 0x7f
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co)
}

// isChinese is bert.rs is_chinese_char: the CJK ideograph blocks.
func isChinese(r rune) bool {
	switch {
	case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3400 && r <= 0x4DBF,
		r >= 0x20000 && r <= 0x2A6DF, r >= 0x2A700 && r <= 0x2B73F,
		r >= 0x2B740 && r <= 0x2B81F, r >= 0x2B920 && r <= 0x2CEAF,
		r >= 0xF900 && r <= 0xFAFF, r >= 0x2F800 && r <= 0x2FA1F:
		return true
	}
	return false
}

func (b bertNormalizer) normalize(s string) string {
	if b.clean || b.chinese {
		var sb strings.Builder
		sb.Grow(len(s) + 8)
		for _, r := range s {
			if b.clean {
				if r == 0 || r == utf8.RuneError || isBertControl(r) {
					continue
				}
				if isBertWhitespace(r) {
					r = ' '
				}
			}
			if b.chinese && isChinese(r) {
				sb.WriteByte(' ')
				sb.WriteRune(r)
				sb.WriteByte(' ')
				continue
			}
			sb.WriteRune(r)
		}
		s = sb.String()
	}
	if b.strip {
		s = stripMarks(norm.NFD.String(s), unicode.Mn)
	}
	if b.lower {
		s = lowercase(s)
	}
	return s
}

// stripMarks drops every rune in table.
func stripMarks(s string, table *unicode.RangeTable) string {
	return strings.Map(func(r rune) rune {
		if r >= 0x300 && unicode.Is(table, r) {
			return -1
		}
		return r
	}, s)
}

// lowercase is Rust's char::to_lowercase applied to every character: the
// simple lowercase mapping, except U+0130, whose full mapping is "i\u0307".
func lowercase(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for _, r := range s {
		if r == 0x130 {
			sb.WriteString("i\u0307")
			continue
		}
		sb.WriteRune(unicode.ToLower(r))
	}
	return sb.String()
}

type seqNormalizer []normalizer

func (q seqNormalizer) normalize(s string) string {
	for _, n := range q {
		s = n.normalize(s)
	}
	return s
}

type replaceString struct{ from, to string }

func (r replaceString) normalize(s string) string {
	if r.from == "" {
		return s
	}
	return strings.ReplaceAll(s, r.from, r.to)
}

type replaceRegexp struct {
	re *regexp.Regexp
	to string
}

func (r replaceRegexp) normalize(s string) string { return r.re.ReplaceAllLiteralString(s, r.to) }

type stripNormalizer struct{ left, right bool }

func (n stripNormalizer) normalize(s string) string {
	if n.left {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
	}
	if n.right {
		s = strings.TrimRightFunc(s, unicode.IsSpace)
	}
	return s
}

type funcNormalizer func(string) string

func (f funcNormalizer) normalize(s string) string { return f(s) }

type prependNormalizer string

func (p prependNormalizer) normalize(s string) string {
	if s == "" {
		return s
	}
	return string(p) + s
}

// whiteSpaceClass is Unicode White_Space, which Oniguruma's \s matches and
// RE2's \s (ASCII only) does not.
const whiteSpaceClass = `\t\n\v\f\r\x{85}\p{Z}`

// translateRegexp rewrites the Oniguruma escapes \s and \S, whose meaning
// differs in RE2, into explicit Unicode classes.
func translateRegexp(p string) string {
	var sb strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			n := p[i+1]
			i++
			switch {
			case n == 's' && inClass:
				sb.WriteString(whiteSpaceClass)
			case n == 's':
				sb.WriteString("[" + whiteSpaceClass + "]")
			case n == 'S' && !inClass:
				sb.WriteString("[^" + whiteSpaceClass + "]")
			default:
				sb.WriteByte('\\')
				sb.WriteByte(n)
			}
		case c == '[' && !inClass:
			inClass = true
			sb.WriteByte(c)
		case c == ']' && inClass:
			inClass = false
			sb.WriteByte(c)
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// gbool is the boolean at key, or def when it is absent or null.
func gbool(r gjson.Result, key string, def bool) bool {
	v := r.Get(key)
	if !v.Exists() || v.Type == gjson.Null {
		return def
	}
	return v.Bool()
}

// parseNormalizer builds the normalizer described by raw (JSON null gives
// nil). It reads JSON with gjson, which needs no reflection, because a fresh
// hook process pays encoding/json's first-use cost on every run.
func parseNormalizer(raw []byte) (normalizer, error) {
	if !gjson.ValidBytes(raw) {
		return nil, fmt.Errorf("normalizer: invalid JSON")
	}
	return parseNormalizerG(gjson.ParseBytes(raw))
}

func parseNormalizerG(j gjson.Result) (normalizer, error) {
	if !j.Exists() || j.Type == gjson.Null {
		return nil, nil
	}
	if !j.IsObject() {
		return nil, fmt.Errorf("normalizer: not an object")
	}
	typ := j.Get("type").String()
	switch typ {
	case "BertNormalizer":
		lower := gbool(j, "lowercase", true)
		return bertNormalizer{
			clean:   gbool(j, "clean_text", true),
			chinese: gbool(j, "handle_chinese_chars", true),
			strip:   gbool(j, "strip_accents", lower),
			lower:   lower,
		}, nil
	case "Sequence":
		var q seqNormalizer
		for _, r := range j.Get("normalizers").Array() {
			n, err := parseNormalizerG(r)
			if err != nil {
				return nil, err
			}
			if n != nil {
				q = append(q, n)
			}
		}
		return q, nil
	case "Replace":
		content := j.Get("content").String()
		str, rx := j.Get("pattern.String"), j.Get("pattern.Regex")
		switch {
		case str.Exists():
			return replaceString{str.String(), content}, nil
		case rx.Exists() && rx.String() == `\s+`:
			// The common whitespace collapse, without the regexp engine.
			return collapseSpace(content), nil
		case rx.Exists():
			re, err := regexp.Compile(translateRegexp(rx.String()))
			if err != nil {
				return nil, fmt.Errorf("normalizer Replace: %w", err)
			}
			return replaceRegexp{re, content}, nil
		}
		return nil, fmt.Errorf("normalizer Replace: no pattern")
	case "Strip":
		return stripNormalizer{gbool(j, "strip_left", true), gbool(j, "strip_right", true)}, nil
	case "Lowercase":
		return funcNormalizer(lowercase), nil
	case "StripAccents":
		return funcNormalizer(func(s string) string { return stripMarks(s, unicode.M) }), nil
	case "NFC":
		return funcNormalizer(norm.NFC.String), nil
	case "NFD":
		return funcNormalizer(norm.NFD.String), nil
	case "NFKC":
		return funcNormalizer(norm.NFKC.String), nil
	case "NFKD":
		return funcNormalizer(norm.NFKD.String), nil
	case "Prepend":
		return prependNormalizer(j.Get("prepend").String()), nil
	}
	return nil, fmt.Errorf("%w: normalizer %q", ErrUnsupported, typ)
}

func unicodeIsAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// collapseSpace replaces every run of Unicode White_Space with to: the
// Replace normalizer with pattern Regex("\s+") as Oniguruma matches it.
type collapseSpace string

func (c collapseSpace) normalize(s string) string {
	var sb strings.Builder
	sb.Grow(len(s))
	inRun := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			if !inRun {
				sb.WriteString(string(c))
				inRun = true
			}
			continue
		}
		inRun = false
		sb.WriteRune(r)
	}
	return sb.String()
}
