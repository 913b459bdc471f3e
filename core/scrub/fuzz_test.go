package scrub

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzScrub checks Scrub's invariants on arbitrary text:
//   - findings are sorted, in bounds, non-overlapping and named by a rule;
//   - text without findings comes back unchanged;
//   - no matched secret of 8 bytes or more survives outside the markers;
//   - valid UTF-8 stays valid (no redaction splits a character);
//   - scrubbing is idempotent: Scrub(Scrub(x)) == Scrub(x).
//
// Seeds: testdata/fuzz/FuzzScrub (rows of the shared secrets corpus), the
// positives of TestFindPositives and the adversarial idempotency inputs.
func FuzzScrub(f *testing.F) {
	for _, p := range positives() {
		f.Add(strings.Replace(p.text, "{S}", p.secret, 1))
	}
	for _, in := range adversarialInputs() {
		f.Add(in)
	}
	s := New()
	f.Fuzz(func(t *testing.T, in string) {
		out, fs := s.Scrub(in)
		if len(fs) == 0 {
			if out != in {
				t.Fatalf("no findings but text changed: %q -> %q", in, out)
			}
		}
		prev := 0
		for _, f := range fs {
			if f.Start < prev || f.End <= f.Start || f.End > len(in) {
				t.Fatalf("bad finding %+v after offset %d in %d bytes", f, prev, len(in))
			}
			if f.Rule == "" {
				t.Fatalf("finding without rule: %+v", f)
			}
			prev = f.End
		}
		pieces := unredacted(out)
		for _, f := range fs {
			sec := in[f.Start:f.End]
			if len(sec) < 8 {
				continue
			}
			for _, p := range pieces {
				if strings.Contains(p, sec) {
					t.Fatalf("secret %q (%s) survives in %q", sec, f.Rule, out)
				}
			}
		}
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("valid UTF-8 in, invalid out: %q -> %q", in, out)
		}
		again, fs2 := s.Scrub(out)
		if again != out {
			t.Fatalf("not idempotent:\n in   %q\n once %q\n twice %q\n second findings %+v", in, out, again, fs2)
		}
	})
}

// unredacted splits scrubbed text at its [REDACTED:...] markers.
func unredacted(out string) []string {
	var pieces []string
	for {
		i := strings.Index(out, marker)
		if i < 0 {
			return append(pieces, out)
		}
		pieces = append(pieces, out[:i])
		j := strings.IndexByte(out[i:], ']')
		if j < 0 {
			return append(pieces, out[i:])
		}
		out = out[i+j+1:]
	}
}
