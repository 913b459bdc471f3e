package compress

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// hugeRequest is a real output repeated past MaxExaminedBytes, with one
// error line at its very start, one in the middle and a verdict at its end.
func hugeRequest(tb testing.TB) Request {
	tb.Helper()
	req := megabyteRequest(tb)
	var out strings.Builder
	out.WriteString("error: the first error\n")
	for out.Len() < MaxExaminedBytes {
		out.WriteString(req.Stdout)
	}
	out.WriteString("error: an error in the middle\n")
	for out.Len() < 2*MaxExaminedBytes {
		out.WriteString(req.Stdout)
	}
	out.WriteString("FAIL\texample.com/huge\t1.5s\n")
	return Request{Command: "make check", Stdout: out.String(), Stderr: strings.Repeat(req.Stderr, 16)}
}

// TestHugeOutputWindow checks that an output over MaxExaminedBytes is
// condensed from its head and tail: the extract names the lines it did not
// read, counts every line in its header, keeps the first error and the
// final verdict, fits its budget and is deterministic.
func TestHugeOutputWindow(t *testing.T) {
	req := hugeRequest(t)
	ex := Condense(context.Background(), req, Options{}, testSavedPath)
	text := ex.Stdout + ex.Stderr
	total := strings.Count(req.Stdout, "\n") + strings.Count(req.Stderr, "\n")
	if ex.Lines != total {
		t.Errorf("Lines = %d, want %d", ex.Lines, total)
	}
	lines, counts := splitStreams(req, false, newQuery(req))
	skipped := 0
	for _, l := range lines {
		skipped += int(l.skip)
	}
	if skipped == 0 {
		t.Fatal("no line skipped")
	}
	if !strings.HasPrefix(ex.Stdout, headerLine(total, len(req.Stdout)+len(req.Stderr), skipped, testSavedPath, "")+"\n") {
		t.Errorf("header does not count every line: %.200q", ex.Stdout)
	}
	for _, want := range []string{"error: the first error", "FAIL\texample.com/huge\t", " lines only searched for errors: output over " + itoa(MaxExaminedBytes>>20) + " MiB); "} {
		if !strings.Contains(text, want) {
			t.Errorf("extract lacks %q", want)
		}
	}
	if n := len(ex.Stdout) + len(ex.Stderr); n > DefaultBudgetTokens*CharsPerToken {
		t.Errorf("extract is %d bytes, budget %d", n, DefaultBudgetTokens*CharsPerToken)
	}
	if again := Condense(context.Background(), req, Options{}, testSavedPath); again != ex {
		t.Error("not deterministic")
	}
	// The gap markers count the lines not read.
	if counts[0]+counts[1] != total {
		t.Errorf("counts %v, want %d lines", counts, total)
	}
	// Blank lines stand for the lines not read line by line, between the
	// error lines the cheap search found there (mayBeError), at most
	// maxMiddleLines of them per stream.
	gaps, found := 0, 0
	for i, l := range lines {
		if l.skip > 0 {
			gaps++
			if i+1 < len(lines) && lines[i+1].skip > 0 {
				t.Errorf("two skip lines in a row at %d", i)
			}
		}
	}
	for _, l := range lines {
		if l.skip == 0 && l.kind == kindError {
			found++
		}
	}
	if gaps < 2 || gaps > 2*(maxMiddleLines+1) || found == 0 {
		t.Errorf("%d lines stand for skipped lines, %d error lines", gaps, found)
	}
	omitted := 0
	for _, ln := range strings.Split(text, "\n") {
		var n int
		if _, err := fmt.Sscanf(ln, "[… %d lines omitted …]", &n); err == nil {
			omitted += n
		} else if ln == "[… 1 line omitted …]" {
			omitted++
		} else if _, err := fmt.Sscanf(ln, "[… %d similar lines omitted …]", &n); err == nil {
			omitted += n
		}
	}
	if omitted < skipped {
		t.Errorf("gap markers count %d omitted lines, fewer than the %d not read", omitted, skipped)
	}
}

func TestWindow(t *testing.T) {
	for _, c := range []struct {
		name       string
		text       string
		share      int
		head, tail string
		skipped    int
	}{
		{"fits", "a\nb\nc", 5, "a\nb\nc", "", 0},
		{"no head", "aaaa\nbb\ncc\ndd\nee\nff", 12, "", "dd\nee\nff", 3},
		{"head and tail", "a\nb\ncc\ndd\nee\nff\ngg", 12, "a", "ee\nff\ngg", 3},
		{"blank first line is no head", "\nbb\ncc\ndd\nee\nff", 12, "", "dd\nee\nff", 3},
		{"blank last line in the tail", "aa\nbb\ncc\ndd\nee\n", 8, "", "ee\n", 4},
		{"empty last line is no tail", "aaaaaa\nbbbbbbbbbbbbbbbb\n", 8, "", "", 3},
		{"one long line", strings.Repeat("x", 40), 12, "", "", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			head, tail, skipped := window(c.text, c.share)
			if head != c.head || tail != c.tail || skipped != c.skipped {
				t.Fatalf("window(%q, %d) = %q, %q, %d; want %q, %q, %d", c.text, c.share, head, tail, skipped, c.head, c.tail, c.skipped)
			}
			if skipped > 0 {
				n := func(s string) int {
					if s == "" {
						return 0
					}
					return strings.Count(s, "\n") + 1
				}
				if n(head)+n(tail)+skipped != strings.Count(c.text, "\n")+1 {
					t.Fatalf("lines do not add up")
				}
			}
		})
	}
}

// BenchmarkCondense4MB condenses an output of about MaxExaminedBytes, the
// most that is read line by line (larger outputs cost the same).
func BenchmarkCondense4MB(b *testing.B) {
	req := megabyteRequest(b)
	req.Stdout = strings.Repeat(req.Stdout, 4)
	req.Stderr = strings.Repeat(req.Stderr, 4)
	b.SetBytes(int64(len(req.Stdout) + len(req.Stderr)))
	for b.Loop() {
		Condense(context.Background(), req, Options{}, testSavedPath)
	}
}

// BenchmarkCondense32MB condenses an output eight times MaxExaminedBytes.
func BenchmarkCondense32MB(b *testing.B) {
	req := megabyteRequest(b)
	req.Stdout = strings.Repeat(req.Stdout, 32)
	req.Stderr = strings.Repeat(req.Stderr, 32)
	b.SetBytes(int64(len(req.Stdout) + len(req.Stderr)))
	for b.Loop() {
		Condense(context.Background(), req, Options{}, testSavedPath)
	}
}

// TestLinesAccounted: in an extract of command output (not content, every
// line read), the lines shown plus the lines its gap and run markers count
// are the header's total, less the blank lines at a stream's start or end
// (the only lines dropped without a marker).
func TestLinesAccounted(t *testing.T) {
	names, _, reqs := allOutputs(t)
	checked := 0
	for i, req := range reqs {
		if !ShouldCondense(req, Options{}) || contentOf(req).kind != contentNone || len(req.Stdout)+len(req.Stderr) > MaxExaminedBytes || looksBinary(req.Stdout) || looksBinary(req.Stderr) {
			continue
		}
		ex := Condense(context.Background(), req, Options{}, testSavedPath)
		head, body, _ := strings.Cut(ex.Stdout, "\n")
		var total int
		if _, err := fmt.Sscanf(strings.ReplaceAll(head[strings.Index(head, "from ")+5:], ",", ""), "%d lines", &total); err != nil {
			continue // the header counts bytes or lines not read
		}
		if strings.Contains(ex.Stdout, "more lines of this shape") || strings.Contains(ex.Stderr, "more lines of this shape") {
			continue // a group's count names lines shown or omitted elsewhere
		}
		edge := 0
		for _, s := range []string{req.Stdout, req.Stderr} {
			ls := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
			if s == "" {
				continue
			}
			for k := 0; k < len(ls) && strings.TrimSpace(cleanLine(ls[k])) == ""; k++ {
				edge++
			}
			for k := len(ls) - 1; k >= 0 && strings.TrimSpace(cleanLine(ls[k])) == ""; k-- {
				edge++
			}
		}
		n := 0
		var shown []string
		for _, part := range []string{body, ex.Stderr} {
			if part != "" {
				shown = append(shown, strings.Split(strings.TrimSuffix(part, "\n"), "\n")...)
			}
		}
		for _, l := range shown {
			var k int
			switch {
			case l == "[… 1 line omitted …]" || strings.HasPrefix(l, "[… line "):
				n++
			case !IsMarkerLine(l):
				n++
			default:
				if _, err := fmt.Sscanf(l, "[… %d lines omitted …]", &k); err == nil {
					n += k
				} else if _, err := fmt.Sscanf(l, "[… %d similar lines omitted …]", &k); err == nil {
					n += k
				}
			}
		}
		checked++
		if n != total && n != total-edge {
			t.Errorf("%s: header says %d lines, the extract accounts for %d (%d blank at the edges)", names[i], total, n, edge)
			if testing.Verbose() {
				t.Logf("%s\n--- stderr\n%s", ex.Stdout, ex.Stderr)
			}
		}
	}
	t.Logf("%d extracts checked", checked)
}
