package textan

import "unicode/utf8"

// CharsPerToken is vaultctx's one token estimate: 4 characters per token,
// the usual rule of thumb for English text with the tokenizers of Claude
// and GPT models. Every budget in tokens (search --max-tokens, the context
// hooks' blocks, the PostToolUse extract) is converted with it.
//
// A "character" is a rune wherever text is measured for a reader (search
// results, context blocks: EstimateTokens, CharBudget on rune counts). The
// PostToolUse extract applies the same constant to bytes (len) instead:
// its budget also guards Claude Code's 10,000-character hook output cut,
// bytes are never fewer than runes, so the estimate is never low, and
// counting bytes keeps the condense hot path free of UTF-8 decoding. On
// ASCII text both count the same; the condense goldens depend on bytes.
const CharsPerToken = 4

// EstimateTokens returns the estimated number of tokens of s: its runes
// divided by CharsPerToken, rounded up ("" gives 0). EstimateTokens(s) <= n
// exactly when utf8.RuneCountInString(s) <= CharBudget(n).
func EstimateTokens(s string) int {
	return (utf8.RuneCountInString(s) + CharsPerToken - 1) / CharsPerToken
}

// CharBudget returns how many characters (runes, or bytes for the
// PostToolUse extract; see CharsPerToken) fit in a budget of tokens tokens:
// tokens*CharsPerToken.
func CharBudget(tokens int) int { return tokens * CharsPerToken }
