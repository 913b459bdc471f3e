// Package neardup decides whether two chunk texts are near-duplicates, so
// that the same section copied into several notes (the 5.1, 7.4, 7.5, 7.6
// and 7.7 versions of one PowerShell page) is shown once. It is pure Go and
// touches no database; core/retrieve and core/recall apply it to result
// lists.
//
// # Method
//
// Broder's resemblance of w-shingle sets (A. Z. Broder, "On the
// resemblance and containment of documents", Compression and Complexity of
// Sequences 1997):
//
//	r(A, B) = |S(A) ∩ S(B)| / |S(A) ∪ S(B)|
//
// where S(X) is the set of runs of Width (4) consecutive terms of X. Terms
// are textan's (lowercased runs of letters and digits), so white space,
// markdown and code punctuation do not count. Each shingle is a 64-bit
// hash (FNV-1a of each term, chained through the SplitMix64 finaliser), so
// a set is a sorted []uint64 and r is one merge. A text with fewer than
// Width terms has one shingle, all its terms; two texts without any term
// are duplicates only when they are equal after trimming white space.
//
// r is computed exactly, not estimated with MinHash (Broder 1997, the
// sketch of the same paper): a result list holds tens of chunks of at most
// 2,000 characters, so the exact sets cost less than the permutations of a
// sketch. Fast paths, each giving the same answer as the definition: equal
// normalised texts (FNV-1a 64 of the terms joined by spaces) are
// duplicates without a merge; a pair whose set sizes alone keep r below
// Threshold is rejected without one; and a merge stops as soon as the
// shingles left cannot lift r to Threshold.
//
// # Threshold
//
// Two texts are near-duplicates when r >= Threshold, 0.8. Measured on all
// 162,866 chunks of ../shared/corpora/large as the indexer cuts them
// (NEARDUP.md has the tables and the commands):
//
//   - the same section of the same page in two PowerShell doc versions
//     (80,818 pairs, mostly copies): 93.2% have r = 1, 96.1% r >= 0.8,
//     98.4% r >= 0.5; the rest are sections rewritten between versions;
//   - neighbouring chunks of one note (146,194 pairs, two parts of one
//     note, so not copies): 0.47% have r >= 0.8, 0.22% r = 1 (INPUTS and
//     OUTPUTS sections with the same text), 2.5% r >= 0.5;
//   - random pairs of two notes (200,000): 0.09% r >= 0.8, nearly all of
//     them boilerplate repeated word for word (-WhatIf, CommonParameters).
//
// Per bin of r, version pairs outnumber neighbour pairs from [0.6, 0.7)
// up (density ratio 1.2, then 2.3 in [0.7, 0.8), 6.7 in [0.8, 0.9), 57 in
// [0.9, 1)). The threshold sits one bin above the crossing, because a
// wrong collapse hides a chunk while a missed one only repeats text: at
// 0.8 copies are 6.7 times as frequent as parts of one note, at 0.7 only
// 2.3 times, the rest being templated siblings (-Maximum and -Minimum of
// one cmdlet). In real top-10 lists the closest distinct documents stay
// just apart (ARM against ARM64 intrinsics, 0.795; C2827 against C2828,
// 0.784; Get-ChildItem's SYNTAX of 5.1 against 7.x, 0.56), and 94.8% of
// the version pairs there fold. Widths 3 to 6 give the same trade within
// a point; 4 keeps short texts (a 10-word chunk) comparable.
package neardup
