package main

import (
	"strings"
	"testing"
	"time"
)

func TestProgressText(t *testing.T) {
	for _, c := range []struct {
		done, total int
		elapsed     time.Duration
		want        string
	}{
		{0, 10, 0, "indexing 0/10 files"},
		{5, 10, 0, "indexing 5/10 files"},
		{50, 200, 2 * time.Second, "indexing 50/200 files, 25 files/s, 6 s left"},
		{1, 3, 400 * time.Millisecond, "indexing 1/3 files, 2 files/s, 1 s left"},
	} {
		if got := progressText(c.done, c.total, c.elapsed); got != c.want {
			t.Errorf("progressText(%d, %d, %v) = %q, want %q", c.done, c.total, c.elapsed, got, c.want)
		}
	}
}

// TestProgressLine checks that the line is drawn once per interval and
// erased at the end, leaving the terminal's line empty for the summary.
func TestProgressLine(t *testing.T) {
	var b strings.Builder
	p := &progressLine{w: &b, start: time.Now()}
	p.update(1, 100)
	p.update(2, 100) // within progressEvery of the first: not drawn
	if n := strings.Count(b.String(), "\r"); n != 1 {
		t.Fatalf("two updates within %v drew %d lines: %q", progressEvery, n, b.String())
	}
	p.last = p.last.Add(-progressEvery)
	p.update(3, 100)
	out := b.String()
	if last := out[strings.LastIndex(out, "\r"):]; !strings.HasPrefix(last, "\r\x1b[Kindexing 3/100 files") {
		t.Fatalf("update after the interval did not redraw: %q", out)
	}
	p.update(100, 100)
	if !strings.HasSuffix(b.String(), "\r\x1b[K") || p.shown {
		t.Fatalf("the last update did not erase the line: %q", b.String())
	}
	before := b.Len()
	p.update(100, 100)
	if b.Len() != before {
		t.Fatalf("an update after the end wrote %q", b.String()[before:])
	}
	var q strings.Builder
	(&progressLine{w: &q, start: time.Now()}).update(0, 0)
	if q.Len() != 0 {
		t.Fatalf("an empty run drew %q", q.String())
	}
}
