// Package recall answers the two context hooks, UserPromptSubmit and
// PreToolUse: it turns the hook input into a query, searches the vault
// index (core/engine) in hybrid mode, drops weak results and chunks this
// session has already been shown, scrubs credentials, folds near-duplicate
// chunks (one section copied into several notes) into the first of them
// (Collapse), and renders the context block under a token budget
// (FormatContext), where a folded copy costs one path on an "also in" line.
//
// # Relevance floor
//
// A hook prints context only when its result list clears the relevance
// floor (Floor, Measure): either some hit found by the vector leg has a
// cosine similarity to the query of at least hooks.min_score
// (DefaultMinCosine, 0.77, when unset), or some hit found by the BM25 leg
// contains at least DefaultMinCoverage (70%) of the query's searchable
// terms, or at least DefaultMinMatched (7) of them. The numbers were chosen
// by measuring 55 prompts that have a relevant note and 48 that do not
// against an index of the 16,691-file large corpus with the GloVe test
// model; FLOOR.md has the tables and the command that reproduces them. The cosine leg depends on the embedding
// model: with another model, measure again and set hooks.min_score.
package recall
