// Package recall answers the two context hooks, UserPromptSubmit and
// PreToolUse: it turns the hook input into a query, searches the vault
// index (core/engine) in hybrid mode, drops weak results and chunks this
// session has already been shown, scrubs credentials, and renders the
// context block under a token budget (core/hookio).
//
// Relevance floor: a prompt gets context only when its best hit is either a
// BM25 match covering at least MinTermCoverage of the query's searchable
// terms, or a vector match with cosine similarity of at least the
// configured hooks.min_score (DefaultMinCosine when unset). See README
// "How ranking works" for how these numbers were measured.
package recall
