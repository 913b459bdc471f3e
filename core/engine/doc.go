// Package engine wires an index file to search: it opens core/store,
// finds the embedding model (Options.ModelDir, else the one the index
// records in meta model_dir), checks that it is the model the vectors were
// made with (its embed hash against meta model_hash; ErrModelMismatch
// otherwise, and search answers with BM25 alone), and runs core/retrieve
// over both, passing the BM25 column weights with every query. The CLI and
// every hook open the index through Open, so they all find config, index
// and model the same way.
package engine
