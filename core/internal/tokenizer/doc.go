// Package tokenizer is a Go implementation of the parts of Hugging Face
// tokenizers (the Rust crate behind the Python and npm packages) that static
// embedding models need: it reads a tokenizer.json and turns text into token
// ids exactly as Tokenizer.encode(text, add_special_tokens=False) does.
//
// Supported pipeline parts:
//
//   - added tokens: split out of the raw text (normalized=false) or out of each
//     normalized piece (normalized=true), leftmost-longest, honouring lstrip
//     and rstrip;
//   - normalizers: BertNormalizer, Sequence, Replace (string or regex
//     pattern), Strip, Lowercase, StripAccents, NFC, NFD, NFKC, NFKD, Prepend;
//   - pre-tokenizers: BertPreTokenizer, Metaspace (prepend_scheme always,
//     first or never; split or not), WhitespaceSplit, Sequence of these;
//   - models: WordPiece (greedy longest-match-first with a continuing-subword
//     prefix) and Unigram (Viterbi over piece log-probabilities, unknown
//     characters scored min_score-10 and fused).
//
// The semantics follow huggingface/tokenizers: normalizers/bert.rs,
// pre_tokenizers/bert.rs, pre_tokenizers/metaspace.rs, models/wordpiece,
// models/unigram/model.rs (encode_optimized) and tokenizer/added_vocabulary.rs.
// Character classes use Go's unicode tables (Unicode 15); the Rust crate uses
// the older unicode_categories tables for control and punctuation tests, so a
// character added to Unicode after 2016 in those categories may split
// differently.
//
// Loading: the vocabulary is kept in one compact, position-independent block
// (string offsets, string bytes, an open-addressing hash table and, for
// Unigram, scores) that Load writes to a cache directory and later maps with
// mmap, so a 120,000-word vocabulary is ready in well under a millisecond
// instead of the tens of milliseconds JSON parsing takes.
package tokenizer
