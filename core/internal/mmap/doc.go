// Package mmap maps a file read-only into memory, for the embedding matrix
// (core/embed) and the tokenizer cache (core/embed/tokenizer), which are
// read in place without a copy.
//
// On Unix (Linux, macOS, the BSDs) Map is mmap(2) with PROT_READ and
// MAP_SHARED. Elsewhere (Windows) it reads the file into an ordinary byte
// slice: the same contents and the same API, with the file's size in
// memory instead of in the page cache, so the packages above build and work
// on every GOOS.
package mmap
