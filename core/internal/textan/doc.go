// Package textan is vaultctx's one owner of light text analysis: splitting
// text into terms, the stop words, the light suffix strippers and the token
// estimate. It is pure Go with no dependencies beyond the standard library,
// so every user (the BM25 query builder, the hooks' prompt gating and
// relevance floor, the PostToolUse ranker, the result budgets) agrees on
// the same rules.
//
// # Two stop-word layers
//
// StopWord is the search list: Lucene's English stop set (the one the BEIR
// BM25 baseline used) plus the question words common in prompts. The BM25
// query drops these words, and the eval numbers were measured with exactly
// this list.
//
// Filler is a second layer on top of it: the rest of a classic English
// stop-word list (pronouns, auxiliaries, prepositions) and the fillers of
// chat prompts ("yes", "ok", "go", "please", "thanks", "continue"). Those
// words may still be searched (BM25 weighs them down by their document
// frequency), but a prompt made of nothing else carries no search intent, so
// the hooks' gating (SearchableTerms: a prompt needs two terms) and the
// relevance floor's term coverage ignore them too. Keeping the two layers
// apart keeps the search ranking and the gating exactly as measured; merging
// them would change both.
package textan
