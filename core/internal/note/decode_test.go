package note

import (
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		want    string
		problem string // substring of the one expected problem, "" for none
	}{
		{"plain", []byte("a\nb\n"), "a\nb\n", ""},
		{"utf-8 bom", []byte("\xEF\xBB\xBFhello\n"), "hello\n", ""},
		{"only the first bom", []byte("\xEF\xBB\xBF\xEF\xBB\xBFx"), "\uFEFFx", ""},
		{"crlf", []byte("a\r\nb\r\n"), "a\nb\n", ""},
		{"lone cr", []byte("a\rb\r"), "a\nb\n", ""},
		{"mixed endings", []byte("a\r\n\rb\n\r\n"), "a\n\nb\n\n", ""},
		{"bom and crlf", []byte("\xEF\xBB\xBF---\r\ntitle: x\r\n---\r\n"), "---\ntitle: x\n---\n", ""},
		{"windows-1252 byte", []byte("caf\xE9 \x93quoted\x94 \x80"), "café “quoted” €", "4 bytes decoded as Windows-1252"},
		{"valid utf-8 kept beside a bad byte", []byte("naïve \xFF ok"), "naïve ÿ ok", "1 bytes"},
		{"truncated sequence", []byte("x\xE2\x82"), "xâ‚", "2 bytes"},
		{"nfd to nfc", []byte("Cafe\u0301 Ch\u00e2telier"), "Café Châtelier", ""},
		{"nfd after long ascii", []byte(strings.Repeat("a", 40) + "e\u0301"), strings.Repeat("a", 40) + "é", ""},
		{"utf-16le", []byte{0xFF, 0xFE, 'h', 0, 'i', 0, '\r', 0, '\n', 0}, "hi\n", "UTF-16"},
		{"utf-16be", []byte{0xFE, 0xFF, 0, 'h', 0, 0xE9}, "hé", "UTF-16"},
		{"empty", nil, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, problems := Decode(tc.in)
			if got != tc.want {
				t.Errorf("Decode(%q) = %q, want %q", tc.in, got, tc.want)
			}
			switch {
			case tc.problem == "" && len(problems) > 0:
				t.Errorf("problems = %q, want none", problems)
			case tc.problem != "" && (len(problems) != 1 || !strings.Contains(problems[0], tc.problem)):
				t.Errorf("problems = %q, want one containing %q", problems, tc.problem)
			}
			if !norm.NFC.IsNormalString(got) {
				t.Errorf("result is not NFC: %q", got)
			}
		})
	}
}

// TestDecodeWindows1252Table checks every high byte against the
// Windows-1252 code page as published by Unicode; the five unassigned
// bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) become U+FFFD.
func TestDecodeWindows1252Table(t *testing.T) {
	special := map[byte]rune{
		0x80: '€', 0x82: '‚', 0x83: 'ƒ', 0x84: '„', 0x85: '…', 0x86: '†', 0x87: '‡',
		0x88: 'ˆ', 0x89: '‰', 0x8A: 'Š', 0x8B: '‹', 0x8C: 'Œ', 0x8E: 'Ž',
		0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—',
		0x98: '˜', 0x99: '™', 0x9A: 'š', 0x9B: '›', 0x9C: 'œ', 0x9E: 'ž', 0x9F: 'Ÿ',
	}
	for b := 0x80; b <= 0xFF; b++ {
		want := rune(b) // the Latin-1 range
		if r, ok := special[byte(b)]; ok {
			want = r
		} else if b < 0xA0 {
			want = '\uFFFD'
		}
		got, _ := Decode([]byte{'x', byte(b)})
		if got != norm.NFC.String("x"+string(want)) {
			t.Errorf("byte %#x decoded as %q, want %q", b, got, "x"+string(want))
		}
	}
}
