// Package embed loads Model2Vec static embedding models and turns text into
// vectors, matching Python model2vec's StaticModel.encode(max_length=512):
//
//  1. truncate the text to 512 x median-token-length code points (the median
//     over the tokenizer vocabulary, rounded down);
//  2. tokenize without special tokens (package embed/tokenizer);
//  3. drop the unknown-token id;
//  4. keep at most 512 ids;
//  5. look up each id's row (through the `mapping` tensor when the vocabulary
//     is quantised) and scale it by the id's entry in `weights`, if present;
//  6. take the mean (accumulated in float64); no ids give the zero vector;
//  7. L2-normalise when the config says normalize.
//
// A model directory holds config.json, tokenizer.json and model.safetensors
// (the Model2Vec layout), or the sentence-transformers layout with
// config_sentence_transformers.json, modules.json and a 0_StaticEmbedding/
// folder. The `embeddings` tensor may be F32, F16, BF16, F64 or I8 (I8 values
// are used as they are, like model2vec-rs); `weights` may be F64, F32 or F16;
// `mapping` I32 or I64.
//
// Cost: Open reads the config and the safetensors header only. The first
// Encode maps model.safetensors with mmap (a query touches only the rows of
// its tokens) and loads the tokenizer from a compact cache under
// $XDG_CACHE_HOME/vaultctx/tokenizers. EncodeBatch spreads batches of 64
// texts over all cores.
//
// Package embed/hub downloads models; DefaultDir is where it installs them.
// Package embed itself does no networking, so it stays cheap to link into
// short-lived hook processes.
package embed
