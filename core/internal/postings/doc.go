// Package postings is the storage format of the impact index: posting
// lists of chunk ids with per-column term frequencies, and the chunk
// lengths BM25 needs. It touches no database; core/store keeps the blobs
// in SQLite and core/internal/bm25 scores them.
//
// A posting list (Encode) is uvarint(count) and then blocks of BlockLen
// postings. Each block codes five fields (the chunk-id gap and the
// frequencies in chunk_text, section, heading_context and cjk) with the
// cheapest of three codes, named by a mode byte per field: frame of
// reference bit packing (Goldstein, Ramakrishnan and Shaft, ICDE 1998),
// Golomb-Rice codes (Rice, JPL 1979) and, for rare columns, (position,
// value) pairs. Dense lists of common terms take about 10 bits a posting.
// A Decoder walks a list a block at a time so that a scorer can walk
// several side by side; DecodeBlocks is the same with a callback.
//
// During a build, a VarList holds a list as uvarint pairs while the chunks
// stream past (2.5 bytes a posting), and Merge joins the lists of the
// surface forms of one term into one.
//
// Chunk lengths are a lengths blob (EncodeLengths: a width byte, 2 or 4,
// then the little-endian lengths), cut by SplitLengths into parts that
// fit one SQLite page, most of them byte parts (width 1: one byte a
// chunk, the few lengths of 255 tokens or more escaped to a table at the
// end); Lengths answers a chunk's length from them. SQLiteVarint and DocSize read FTS5's own docsize and averages
// records.
//
// IDSet is a bitmap of chunk ids (the chunks deleted since a build) that
// scoring skips and CountIn counts in a list.
package postings
