// Package note reads one markdown file into a Note: it decodes the bytes
// (Decode), separates and reads the frontmatter, and finds the title and
// the tags.
//
// # Frontmatter
//
// A frontmatter block starts on the very first line with "---" (YAML, or
// "---yaml") or "+++" (TOML, or "---toml") and ends at the next line that
// holds only the same delimiter. It is decoded with
// github.com/adrg/frontmatter. The keys title, type, tags (or tag; for
// Zola/Hugo also [taxonomies] tags) and aliases (or alias) are read,
// case-insensitively. A "---" later in the body is never frontmatter.
//
// Broken frontmatter never loses the note or its text; each case adds one
// entry to Note.Problems:
//
//   - Unclosed: no closing delimiter. The opening line is dropped and the
//     rest of the file is the body.
//   - Letterhead: the block decodes but is not key/value data (plain prose
//     lines decode as one YAML string), or fails to decode and has no
//     "key: value" line at all. The lines between the fences are kept as
//     the start of the body; the fences are dropped (left in, the closing
//     "---" would turn the last prose line into a setext heading).
//   - Invalid: the block fails to decode but has "key: value" lines. Title,
//     type, tags and aliases are salvaged line by line; every other line of
//     the block (prose, unknown keys) is kept at the start of the body.
//   - Stacked: a second block (after optional blank lines) right after a
//     readable first block. If it is key/value data (or salvageable) its
//     title, type, tags and aliases are merged (the first block's title and
//     type win; tags and aliases are joined) and its other lines stay in the
//     body, since a "---" pair after frontmatter may just be two thematic
//     breaks around text such as "Status: done". A following block that is
//     not key/value data stays in the body as it is.
//
// An empty block ("---" directly followed by "---") is fine and no problem.
//
// # Title and tags
//
// The title is the frontmatter title, else the first H1 of the body (ATX
// "# Title" or a setext "Title" underlined with "="), else the file name
// stem. Inline tags follow Obsidian: '#' at the start of a line or after
// white space, then letters, digits, '_', '-' and '/', with at least one
// letter; never inside fenced code, inline code, %% comments %% or link
// reference definitions ("[1]: #anchor"), so heading markers, issue
// numbers ("#460") and URL fragments are not tags.
//
// Parse does one pass over the body besides decoding; the frontmatter
// decoder sees only the block.
package note
