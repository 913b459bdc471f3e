// Package chunk splits a note body into retrievable chunks at its H1/H2
// headings, the way the reference design's _split_at_headings does, with
// size limits so that every chunk fits an embedding window and a hook's
// context budget.
//
// Sizes are counted in runes (Unicode code points), not bytes.
//
// # Rules
//
//  1. Headings. A section starts at every ATX H2 ("## ") and setext H2 (a
//     paragraph underlined with "-"), and at every ATX H1 ("# ") and setext
//     H1 (underlined with "="). A "---" line after a blank line, a list
//     item, a block quote or an HTML block is a thematic break, not an
//     underline (CommonMark 0.31, 4.1 and 4.3). Headings inside fenced code
//     (``` or ~~~; a fence closes only with at least as many of the same
//     character, 4.5), indented code and HTML blocks (4.6) do not count. An
//     unclosed fence runs to the end of the text, as in CommonMark. One
//     deliberate deviation: a closing fence counts at any indentation, so a
//     fence in a list item closed one space short does not swallow the rest
//     of the note. On all 16,915 corpus files the headings found equal
//     those of the CommonMark parser goldmark except for that one case
//     (TestScannerMatchesCommonMark).
//  2. Section names. A section's name is its heading text with any closing
//     #s removed (multi-line setext text joined by spaces); the heading line
//     is not repeated in Text. Text before the first heading is a section
//     named after the note title. A heading longer than MaxHeadingRunes (256)
//     is shortened at a word boundary with "…" for the name, and then its
//     full line is kept at the start of Text so nothing is lost (a long
//     title is shortened the same way).
//  3. Trimming. Chunk text loses leading blank lines and trailing white
//     space; the first line keeps its indentation.
//  4. Long sections. A section over MaxChars (2,000) runes is split
//     a. at its H3 headings (outside fences): the part before the first H3
//     keeps the section name, each H3 part is named "Section > H3" and
//     does not repeat the H3 line; then any part still too long is packed
//     greedily into chunks of at most MaxChars runes, cutting
//     b. at blank lines outside code fences; where a stretch between those
//     is still too long, at line starts outside fences; then at blank
//     lines inside fences; then at any line start;
//     c. (so a code fence is cut only when no other cut point exists)
//     d. and as a last resort hard-split into the fewest pieces of about
//     equal size (so no tiny tail is lost to rule 5), each cut after the
//     last white space in the second half of its window, else at a rune
//     boundary; white space at a cut is dropped.
//     No chunk's Text exceeds MaxChars runes.
//  5. Short chunks. A chunk whose trimmed Text weighs under MinChars (30)
//     is dropped, after splitting; empty chunks are always dropped. A rune
//     weighs 1, a Han or kana character 4 and a Hangul syllable 2: about
//     as many Latin runes as they carry text, from characters per word
//     (see Weight), so 8 Han characters are kept like 5 English words.
//  6. Skipped sections. An H2 section (or an H1 section other than the
//     first H1) whose heading matches SkipSections (Related, See Also,
//     Links, References, Related Links) is left out with everything under
//     it. Matching ignores case, anything before the first letter (emoji,
//     numbering, "**", "[["), anything after the last letter or digit
//     (":", markup) and repeated white space.
//  7. Ordinals. Ordinal counts the chunks that are kept, from 0, in
//     document order.
//  8. No note without a chunk. When rules 1-6 keep no chunk (every
//     section is short or empty), the note's text outside skipped
//     sections is chunked again as one section named after the title,
//     with its H1/H2 heading lines in Text and rule 5 off: a contact note
//     "# Bob Smith / ## Phone / +1 555 0100" becomes one chunk of all three
//     lines. Its Text is still a slice of the body and still obeys rule 4.
//     Only a body that is empty or white space (or only skipped sections)
//     gives no chunk.
//
// Split makes one pass over the body with a line scanner (no regular
// expressions) and a second pass only over sections that are too long;
// chunk texts are substrings of the body, not copies.
package chunk
