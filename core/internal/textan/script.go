package textan

import "unicode"

// CJK reports whether r belongs to a run of CJK text, the runs that
// keyword search indexes and queries as overlapping character bigrams
// (ftsquery.CJKBigrams): Han, Hiragana, Katakana and Hangul (including the
// halfwidth katakana of U+FF66..FF9D), plus the marks that script
// property Common gives but that only ever occur inside such a run: the
// prolonged sound mark ー (U+30FC) and its halfwidth form ｰ (U+FF70), the
// voiced and semi-voiced sound marks ゛ ゜ (U+309B, U+309C) and their
// halfwidth forms ﾞ ﾟ (U+FF9E, U+FF9F), and the iteration and closing
// marks 々 〆 (U+3005, U+3006). Without them a katakana word such as
// ヒーロー is cut at every ー (Unicode UAX #24 puts these marks in
// Common; ICU's dictionary word breaker treats them as part of the
// katakana or ideographic run the same way).
func CJK(r rune) bool {
	if r < 0x2E80 {
		return false
	}
	switch r {
	case 0x30FC, 0xFF70, 0x309B, 0x309C, 0xFF9E, 0xFF9F, 0x3005, 0x3006:
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// Emoji reports whether r is a pictographic symbol that keyword search
// indexes as a token of its own: a rune of general category So (symbol,
// other) in the blocks where emoji live (Unicode Technical Standard #51,
// emoji-data.txt's Extended_Pictographic ranges, approximated by block):
// Miscellaneous Technical (U+2300..23FF: ⌛ ⏫ ⏳), Miscellaneous Symbols
// and Dingbats (U+2600..27BF: ☀ ✅ ➕), Miscellaneous Symbols and Arrows
// (U+2B00..2BFF: ⭐) and the supplementary pictograph blocks
// U+1F000..1FAFF (📅 🔁 🛫). Box drawing, geometric shapes, arrows and
// the Latin-1 symbols (© °) are left out: they are layout, not words.
// Variation selectors, ZWJ and skin-tone modifiers are not So, so a
// sequence such as 👍🏽 counts as its base pictograph.
func Emoji(r rune) bool {
	switch {
	case r >= 0x2300 && r <= 0x23FF, r >= 0x2600 && r <= 0x27BF, r >= 0x2B00 && r <= 0x2BFF,
		r >= 0x1F000 && r <= 0x1FAFF:
		return unicode.Is(unicode.So, r)
	}
	return false
}

// Identifier reports whether word (one white-space-free word of a query,
// as typed) is written as code rather than as English: it has a capital
// after a lower-case letter (EnableQuickCustomization, iPhone), a run
// mixing letters and digits (C2280, x64), two or more capitals and no
// lower-case letter (MFC, DNS), or letters on both sides of an underscore,
// a dot, "::" or "->" (mbstowcs_s, os.path.join, CWnd::Create). Such words
// are names, which English suffix stripping such as Porter's conflates
// wrongly (EnableQuickCustomization and EnableQuickCustomize share the stem
// "enablequickcustom"), so keyword search also matches them as written.
func Identifier(word string) bool {
	var prev rune // the previous rune, 0 at the start
	runLetter, runDigit := false, false
	joiner := false // a joiner after a letter or digit, not yet followed by one
	for _, r := range word {
		letter, digit := unicode.IsLetter(r), unicode.IsDigit(r)
		switch {
		case letter || digit:
			if joiner {
				return true
			}
			if unicode.IsUpper(r) && unicode.IsLetter(prev) {
				return true
			}
			runLetter, runDigit = runLetter || letter, runDigit || digit
			if runLetter && runDigit {
				return true
			}
		case (r == '_' || r == '.' || r == ':' || r == '>') && (unicode.IsLetter(prev) || unicode.IsDigit(prev) || prev == ':' || prev == '-'):
			joiner = r != ':' || prev == ':' // "::" joins, a lone ":" ends a word
			if r == '>' {
				joiner = prev == '-'
			}
			runLetter, runDigit = false, false
		default:
			joiner = false
			runLetter, runDigit = false, false
		}
		prev = r
	}
	return false
}
