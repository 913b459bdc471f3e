// Package engine wires an index file to search: it opens core/store,
// finds the embedding model that the index records (meta model_dir), and
// runs core/retrieve over both. The CLI and every hook open the index
// through Open, so they all find config, index and model the same way.
package engine
