package compress

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCleanLine(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"plain", "hello\tworld", "hello\tworld"},
		{"crlf", "line\r", "line"},
		{"progress redraw", "\r  0 0\r 79 9771k\r100 12.0M", "100 12.0M"},
		{"redraw ending in erase", "Reading 45%\rReading 100%\r\x1b[K", "Reading 100%"},
		{"sgr", "\x1b[35m\x1b[Kcrypto/x.go\x1b[m\x1b[K:\x1b[32m12\x1b[m", "crypto/x.go:12"},
		{"ls colours", "\x1b[01;34mhttp\x1b[0m", "http"},
		{"osc hyperlink", "\x1b]8;;file:///x\x07link\x1b]8;;\x07", "link"},
		{"backspace", "ab\bc", "ac"},
		{"nul and bell", "a\x00b\x07c", "abc"},
		{"invalid utf8", "a\xffb", "a\uFFFDb"},
		{"c1 control", "a\u0085b", "ab"},
		{"unicode kept", "‘x’ ✓ µs", "‘x’ ✓ µs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := cleanLine(c.in); got != c.want {
				t.Fatalf("cleanLine(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestCleanRealANSI(t *testing.T) {
	for _, c := range loadCases(t) {
		for l := range strings.SplitSeq(c.Req.Stdout+c.Req.Stderr, "\n") {
			if got := cleanLine(l); strings.ContainsAny(got, "\x1b\r\x00") {
				t.Fatalf("%s: control bytes survive in %q", c.Name, got)
			}
		}
	}
}

func TestCutLine(t *testing.T) {
	long := strings.Repeat("é", 300) // 600 bytes
	got := cutLine(long, 500, 101)
	if got != "[… line of 600 bytes cut; it begins: "+strings.Repeat("é", 50)+" …]" {
		t.Fatalf("cutLine = %q", got)
	}
	if !IsMarkerLine(got) {
		t.Fatalf("a cut line is not a marker line: %q", got)
	}
	if cutLine(long, 600, 10) != long {
		t.Fatal("a line at the limit changed")
	}
}

// TestBinaryOutput condenses real binary bytes (the start of the gofmt
// binary, made valid UTF-8 the way Claude Code does) to one line.
func TestBinaryOutput(t *testing.T) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	f, err := os.Open(filepath.Join(strings.TrimSpace(string(goroot)), "bin", "gofmt"))
	if err != nil {
		t.Skipf("no gofmt binary: %v", err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, buf)
	stdout := strings.ToValidUTF8(string(buf[:n]), "\uFFFD")
	ex := Condense(context.Background(), Request{Command: "cat gofmt", Stdout: stdout}, Options{}, testSavedPath)
	if !strings.Contains(ex.Stdout, "binary output") || len(ex.Stdout) > 300 {
		t.Fatalf("binary output not summarised: %q", ex.Stdout[:min(len(ex.Stdout), 300)])
	}
	for _, c := range loadCases(t) {
		if looksBinary(c.Req.Stdout) && c.Name != "binary_elf_head" {
			t.Errorf("%s: text output taken for binary", c.Name)
		}
	}
}

// TestLooksBinary: binary bytes are told from text by their control
// characters, so text in a legacy encoding (each accented letter a U+FFFD,
// as Claude Code hands invalid UTF-8 over) is still text.
func TestLooksBinary(t *testing.T) {
	asClaude := func(b []byte) string { return strings.ToValidUTF8(string(b), "\uFFFD") }
	latin1 := func(s string) []byte {
		var b []byte
		for _, r := range s {
			b = append(b, byte(r)) // every rune here is below U+0100
		}
		return b
	}
	french := strings.Repeat("Élève été à Noël: déjà reçu, où ça? Très bien, garçon.\n", 100)
	random := make([]byte, 8192)
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rnd.Uint32())
	}
	utf16 := make([]byte, 0, 2*len(french))
	for _, c := range []byte("plain ascii text, as UTF-16LE\n") {
		utf16 = append(utf16, c, 0)
	}
	elf := append([]byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00>\x00"), make([]byte, 64)...)
	for _, c := range []struct {
		name   string
		text   string
		binary bool
	}{
		{"latin-1 french", asClaude(latin1(french)), false},
		{"utf-8 french", french, false},
		{"ansi colours", strings.Repeat("\x1b[31mFAIL\x1b[0m x_test.go:12\n", 50), false},
		{"random bytes", asClaude(random), true},
		{"utf-16le", asClaude(utf16), true},
		{"elf header", asClaude(elf), true},
	} {
		if got := looksBinary(c.text); got != c.binary {
			t.Errorf("%s: looksBinary = %v, want %v", c.name, got, c.binary)
		}
	}
}
