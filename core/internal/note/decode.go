package note

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/unicode/norm"
)

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// Decode turns the raw bytes of a markdown file into clean text:
//
//   - a UTF-8 byte order mark is stripped; a UTF-16 file (recognised only by
//     its byte order mark) is converted to UTF-8;
//   - every byte that is not part of a valid UTF-8 sequence is decoded as
//     Windows-1252 (golang.org/x/text/encoding/charmap), so a legacy
//     "café" in an otherwise UTF-8 file stays "café"; the five bytes
//     Windows-1252 leaves unassigned become U+FFFD; valid sequences are
//     kept as they are;
//   - CRLF and lone CR line endings become LF;
//   - the text is normalised to Unicode NFC (golang.org/x/text/unicode/norm),
//     so text typed on macOS (NFD) matches an NFC query.
//
// problems describes what had to be repaired (nil for clean UTF-8); Decode
// never fails. The common case (valid, NFC, LF-only UTF-8) costs one copy.
func Decode(raw []byte) (text string, problems []string) {
	b := raw
	switch {
	case bytes.HasPrefix(b, bomUTF8):
		b = b[len(bomUTF8):]
	case bytes.HasPrefix(b, bomUTF16LE), bytes.HasPrefix(b, bomUTF16BE):
		order := unicode.LittleEndian
		if b[0] == 0xFE {
			order = unicode.BigEndian
		}
		out, err := unicode.UTF16(order, unicode.IgnoreBOM).NewDecoder().Bytes(b[2:])
		if err == nil {
			b = out
			problems = append(problems, "UTF-16 text converted to UTF-8")
		}
	}
	ascii := firstNonASCII(b)
	if ascii < len(b) && !utf8.Valid(b[ascii:]) {
		var n int
		b, n = fixUTF8(b)
		problems = append(problems, fmt.Sprintf("invalid UTF-8: %d bytes decoded as Windows-1252", n))
	}
	if bytes.IndexByte(b, '\r') >= 0 {
		b = normalizeNewlines(b)
	}
	text = string(b)
	// ASCII is always NFC, and an ASCII letter before the first non-ASCII
	// byte is a starter, so only the rest from there needs the check.
	if i := firstNonASCII(b); i < len(b) {
		if i > 0 {
			i--
		}
		if !norm.NFC.IsNormalString(text[i:]) {
			text = norm.NFC.String(text)
		}
	}
	return text, problems
}

// firstNonASCII returns the index of the first byte >= 0x80, or len(b).
func firstNonASCII(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if b[i] >= 0x80 {
			return i
		}
	}
	return i
}

// fixUTF8 keeps valid UTF-8 sequences and decodes every other byte as
// Windows-1252. It returns the new text and the number of bytes decoded.
func fixUTF8(b []byte) ([]byte, int) {
	out := make([]byte, 0, len(b)+len(b)/8)
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			out = utf8.AppendRune(out, charmap.Windows1252.DecodeByte(b[0]))
			n++
			b = b[1:]
			continue
		}
		out = append(out, b[:size]...)
		b = b[size:]
	}
	return out, n
}

// normalizeNewlines turns CRLF and lone CR into LF.
func normalizeNewlines(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\r' {
			if i+1 < len(b) && b[i+1] == '\n' {
				continue
			}
			c = '\n'
		}
		out = append(out, c)
	}
	return out
}
