package scrub

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

type acHit struct {
	id         int32
	start, end int
}

// naiveAnchors is the slow reference for anchorSet.scan: every pattern
// searched with strings.Index in the lower-cased text, overlaps included,
// ordered by end offset then pattern id.
func naiveAnchors(patterns []string, text string) []acHit {
	lt := strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, text)
	if len(lt) != len(text) {
		panic("non-ASCII in test text")
	}
	var hits []acHit
	for id, p := range patterns {
		lp := strings.ToLower(p)
		for i := 0; ; i++ {
			j := strings.Index(lt[i:], lp)
			if j < 0 {
				break
			}
			i += j
			hits = append(hits, acHit{int32(id), i, i + len(p)})
		}
	}
	slices.SortFunc(hits, func(a, b acHit) int {
		if a.end != b.end {
			return a.end - b.end
		}
		return int(a.id - b.id)
	})
	return hits
}

func TestAnchorSetMatchesNaive(t *testing.T) {
	for _, tc := range []struct {
		name     string
		patterns []string
		text     string
	}{
		{"classic he she his hers", []string{"he", "she", "his", "hers"}, "ushers and his HERS she"},
		{"nested suffixes", []string{"a", "aa", "aaa"}, "aaaaAAaa"},
		{"case folding", []string{"AKIA", "sk-", "Bearer"}, "akia AKIA Sk- bearer BEARER"},
		{"no match", []string{"xyz"}, "abcabcabc"},
		{"empty text", []string{"x"}, ""},
		{"scrubber anchors on the mixed note", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pats, text := tc.patterns, tc.text
			if pats == nil {
				s := New()
				for _, r := range s.rules {
					pats = append(pats, r.anchors...)
				}
				pats = append(pats, kvAnchors...)
				pats = append(pats, "://", "-----begin", "eyj")
				text = strings.Repeat(fmt.Sprintf("%s ghp_ AKIA sk-ant- password=x eyJ:// -----BEGIN ", positives()[0].text), 3)
			}
			var got []acHit
			newAnchorSet(pats).scan(text, func(id int32, s, e int) {
				got = append(got, acHit{id, s, e})
			})
			slices.SortStableFunc(got, func(a, b acHit) int {
				if a.end != b.end {
					return a.end - b.end
				}
				return int(a.id - b.id)
			})
			want := naiveAnchors(pats, text)
			if !slices.Equal(got, want) {
				t.Errorf("hits differ\n got  %v\n want %v", got, want)
			}
		})
	}
}
