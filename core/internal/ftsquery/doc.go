// Package ftsquery turns user text into FTS5 input and mirrors FTS5's
// tokenizer, without touching a database. core/store calls it for every
// keyword search, so that escaping of FTS5 input happens inside the store.
//
// Terms builds the terms of a MATCH expression: every word a quoted FTS5
// string (so no user text is ever read as FTS5 syntax), a double-quoted
// span as one phrase, identifiers such as snake_case or os.path.join as
// phrases plus their tokens of two or more characters, hyphenated words
// also joined, English stop words dropped unless nothing else remains,
// runs of CJK characters as bigram phrases and emoji as tokens in the cjk
// column, at most MaxTerms terms. ExactTerms tells which of them the store
// matches unstemmed. Extras builds a chunk's cjk column, what the index
// needs beyond FTS5's own tokens.
//
// Tokens forms the tokens FTS5's unicode61 tokenizer with
// remove_diacritics 2 forms before stemming; the impact index counts terms
// with it, and SingleToken tells which query terms it can serve.
package ftsquery
